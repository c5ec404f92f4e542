package cmd

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/project"
	"github.com/chainrun/chainrun/pkg/store"
	"github.com/chainrun/chainrun/pkg/tracefeed"
)

// Config keys. Every key is also read from CHAINRUN_<KEY>.
const (
	keyConfig          = "config"
	keyChainsDir       = "chains_dir"
	keyStateDir        = "state_dir"
	keyMaxParallel     = "max_parallel"
	keyStrictVariables = "strict_variables"
	keyOutput          = "output"
	keyDefaultModel    = "default_model"
	keyDefaultProvider = "default_provider"
	keyCacheDir        = "cache_dir"
	keyMaxParallelLLM  = "max_parallel_llm"
	keyModelAliases    = "model_aliases"
	keyDurability      = "durability"
	keyPrincipal       = "principal"
	// keyConnections are connections every chain's steps may name (mcp
	// servers, rest services, cli programs), as a file's connections:.
	keyConnections = "connections"
	// keySearchURL and keySearchKeyHeader set the provider of web_search
	// pre_tools; its key is read from CHAINRUN_SEARCH_API_KEY only.
	keySearchURL       = "search_url"
	keySearchKeyHeader = "search_key_header"
	// keyModel is --model, also read from CHAINRUN_MODEL.
	keyModel = "model"
	// keyDotenv names the .env files whose variables every run's commands get.
	keyDotenv = "dotenv"
	// keyPassExitCode is --pass-exit-code: a failed command's exit status
	// is chainrun's.
	keyPassExitCode = "pass_exit_code"
)

// configKeys are the keys a config file may hold (later features add
// theirs here).
var configKeys = []string{keyChainsDir, keyStateDir, keyMaxParallel, keyStrictVariables, keyOutput,
	keyDefaultModel, keyDefaultProvider, "providers", keyCacheDir, keyMaxParallelLLM, "prices", keyModelAliases, keyDurability, keyPrincipal, keySearchURL, keySearchKeyHeader, keyConnections, keyDotenv, keyPassExitCode, "retention", keyOtel,
	keyEngine, keyTemporalAddress, keyTemporalNamespace, keyTemporalQueue, keyLocalActivities, keyTemporalHeartbeat, "test"}

// bindFlag ties a flag to a config key so that flag > env > file holds.
func bindFlag(v *project.Layers, key string, fl *pflag.Flag) {
	if fl != nil {
		v.Bind(key, project.Flag{Changed: func() bool { return fl.Changed }, Value: fl.Value.String, Default: fl.DefValue})
	}
}

// loadConfig reads the config file: --config, else chainrun.yaml in the
// current directory or the nearest parent (up to a .git directory or the
// filesystem root, as go-task finds its Taskfile), else
// $XDG_CONFIG_HOME/chainrun/config.yaml. Only an explicit --config that
// does not exist is an error. Relative paths in a project file (not the
// user's, which serves every directory) are relative to it, and so is the
// default chains directory, so chainrun works from any directory below.
func loadConfig(v *project.Layers) error {
	v.SetDefault(keyStrictVariables, true)
	v.SetDefault(keyChainsDir, "chains")
	v.SetDefault(keyOutput, "text")

	if err := project.CheckEnvSettings(os.Getenv); err != nil {
		return err
	}
	path := v.GetString(keyConfig)
	inProject := path != ""
	if !inProject {
		path = project.ConfigFile()
		inProject = path != ""
	}
	if !inProject {
		if p := project.UserConfigFile(); p != "" {
			if _, err := os.Stat(p); err == nil {
				path = p
			}
		}
	}
	if path == "" {
		return nil
	}
	top, err := project.ReadConfigFile(path)
	if err != nil {
		return err
	}
	for k := range top {
		if !slices.Contains(configKeys, k) {
			return usagef("config file %s: unknown key %q%s (keys are %s)", path, k, chain.DidYouMean(k, configKeys), strings.Join(configKeys, ", "))
		}
	}
	if err := project.CheckFileSettings(path, top); err != nil {
		return err
	}
	if _, err := store.ReadRetention("config file "+path+": ", top["retention"]); err != nil {
		return err
	}
	if _, err := tracefeed.ReadConfig("config file "+path+": ", top[keyOtel]); err != nil {
		return usagef("%v", err)
	}
	v.SetFile(path, top)
	anchorPaths(v, path, top, inProject)
	return nil
}

// configPathKeys are the config keys that hold a directory.
var configPathKeys = []string{keyChainsDir, keyStateDir, keyCacheDir}

// anchorPaths makes a project file's relative directories relative to
// the file (flags and the environment stay relative to the current
// directory).
func anchorPaths(v *project.Layers, path string, top map[string]any, inProject bool) {
	dir := filepath.Dir(path)
	if !inProject || dir == "." {
		return
	}
	v.SetDefault(keyChainsDir, filepath.Join(dir, "chains"))
	for _, k := range configPathKeys {
		if p, ok := top[k].(string); ok && p != "" && !filepath.IsAbs(p) {
			v.SetInFile(k, filepath.Join(dir, p))
		}
	}
}

// outputFormat reads --output (or config output) and checks it.
func outputFormat(v *project.Layers) (string, error) {
	o := v.GetString(keyOutput)
	switch o {
	case "", "text":
		return "text", nil
	case "json":
		return "json", nil
	}
	return "", usagef("--output %q: use text or json", o)
}
