package cmd

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	yaml "go.yaml.in/yaml/v4"

	"github.com/chainrun/chainrun/pkg/chain"
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
	// keyModel is --model, also read from CHAINRUN_MODEL.
	keyModel = "model"
)

// configKeys are the keys a config file may hold (later features add
// theirs here).
var configKeys = []string{keyChainsDir, keyStateDir, keyMaxParallel, keyStrictVariables, keyOutput,
	keyDefaultModel, keyDefaultProvider, "providers", keyCacheDir, keyMaxParallelLLM, "prices"}

// bindFlag ties a flag to a config key so that flag > env > file holds.
func bindFlag(v *viper.Viper, key string, fl *pflag.Flag) {
	if fl != nil {
		_ = v.BindPFlag(key, fl)
	}
}

// loadConfig reads the config file: --config, else ./chainrun.yaml, else
// $XDG_CONFIG_HOME/chainrun/config.yaml. Only an explicit --config that
// does not exist is an error.
func loadConfig(v *viper.Viper) error {
	v.SetEnvPrefix("CHAINRUN")
	v.SetEnvKeyReplacer(strings.NewReplacer("-", "_"))
	v.AutomaticEnv()
	v.SetDefault(keyStrictVariables, true)
	v.SetDefault(keyChainsDir, "chains")
	v.SetDefault(keyOutput, "text")

	if err := checkEnvSettings(); err != nil {
		return err
	}
	path := v.GetString(keyConfig)
	explicit := path != ""
	if !explicit {
		for _, p := range defaultConfigPaths() {
			if _, err := os.Stat(p); err == nil {
				path = p
				break
			}
		}
	}
	if path == "" {
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return usagef("config file %s not found", path)
		}
		return usagef("config file %s: %v", path, err)
	}
	var top map[string]any
	if err := yaml.Load(data, &top); err != nil {
		return usagef("config file %s: %v", path, err)
	}
	for k := range top {
		if !slices.Contains(configKeys, k) {
			return usagef("config file %s: unknown key %q%s (keys are %s)", path, k, chain.DidYouMean(k, configKeys), strings.Join(configKeys, ", "))
		}
	}
	if err := checkFileSettings(path, top); err != nil {
		return err
	}
	v.SetConfigType("yaml")
	if err := v.ReadConfig(bytes.NewReader(data)); err != nil {
		return usagef("config file %s: %v", path, err)
	}
	return nil
}

func defaultConfigPaths() []string {
	paths := []string{"chainrun.yaml"}
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" {
		if home, err := os.UserHomeDir(); err == nil {
			xdg = filepath.Join(home, ".config")
		}
	}
	if xdg != "" {
		paths = append(paths, filepath.Join(xdg, "chainrun", "config.yaml"))
	}
	return paths
}

// outputFormat reads --output (or config output) and checks it.
func outputFormat(v *viper.Viper) (string, error) {
	o := v.GetString(keyOutput)
	switch o {
	case "", "text":
		return "text", nil
	case "json":
		return "json", nil
	}
	return "", usagef("--output %q: use text or json", o)
}
