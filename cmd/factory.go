package cmd

import (
	"cmp"
	"os"
	"path/filepath"
	"strings"

	"github.com/chainrun/chainrun/pkg/cache"
	"github.com/chainrun/chainrun/pkg/catalog"
	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/chain/wfyaml"
	"github.com/chainrun/chainrun/pkg/iostreams"
	"github.com/chainrun/chainrun/pkg/llm"
	"github.com/chainrun/chainrun/pkg/project"
	"github.com/chainrun/chainrun/pkg/render/jsonfilter"
	"github.com/chainrun/chainrun/pkg/render/prompt"
	"github.com/chainrun/chainrun/pkg/run"
	"github.com/chainrun/chainrun/pkg/run/ask"
	"github.com/chainrun/chainrun/pkg/store"
	"github.com/chainrun/chainrun/pkg/tracefeed"
)

// factory carries what commands share, and is the one place their
// dependencies are made, each lazily, once flags are parsed:
//
//	config        flags > CHAINRUN_* env > config file (project.Layers)
//	library       the chains directory's chains, each loaded once: catalog,
//	              resolveChain (by name or path), called (what chain,
//	              workflow and script steps call: catalog.Resolver)
//	registry      model providers (config providers, keys from the env)
//	cacheStore    the answer cache directory
//	stateStore    the saved runs directory
//	prices        what models cost, for runs show
//	engine        the engine runs go through (localEngine; tests swap it)
//	term          the person at the terminal, for every prompt
type factory struct {
	io     *iostreams.IOStreams
	v      *project.Layers
	loaded bool
	cfgErr error
	lib    *catalog.Library
	// getwd is the directory chainrun was started in.
	getwd func() (string, error)
	// term is the person at the terminal, shared by every prompt.
	term *prompt.Terminal
	// engine builds the engine commands run chains on: this process's
	// (localEngine); tests put one of their own here.
	engine func(engineSetup) run.Engine
	// held is stdout held for --jq or --template (cmd/filter.go).
	held *jsonfilter.Held
	// allRuns is --all: "last" and run listings span every project
	// (cmd/runs_scope.go).
	allRuns bool
	// traces is the process's trace export (nil: off), opened by the
	// first run (cmd/telemetry.go).
	traces      *tracefeed.Feed
	traceOpened bool
}

func newFactory(io *iostreams.IOStreams) *factory {
	return &factory{io: io, v: project.NewLayers(os.Getenv), getwd: os.Getwd, term: prompt.New(io.In, io.ErrOut), engine: localEngine}
}

// config returns the loaded configuration (flags > env > file).
func (f *factory) config() (*project.Layers, error) {
	if !f.loaded {
		f.loaded = true
		f.cfgErr = loadConfig(f.v)
	}
	return f.v, f.cfgErr
}

// chainsDir is where chains are found: --chains-dir >
// CHAINRUN_CHAINS_DIR > config chains_dir > ./chains.
func (f *factory) chainsDir() (string, error) {
	v, err := f.config()
	if err != nil {
		return "", err
	}
	dir := v.GetString("chains_dir")
	if dir == "" {
		dir = "chains"
	}
	return filepath.Clean(dir), nil
}

// chainOptions are the validation options the config asks for.
func (f *factory) chainOptions() (chain.Options, error) {
	v, err := f.config()
	if err != nil {
		return chain.Options{}, err
	}
	conns, err := wfyaml.ParseConnections(cmp.Or(v.File(), "config")+": connections", v.Get(keyConnections))
	if err != nil {
		return chain.Options{}, &project.SettingError{Msg: err.Error()}
	}
	return chain.Options{LenientVariables: !v.GetBool("strict_variables"), Connections: conns}, nil
}

// library is the chains directory's chains, each loaded once.
func (f *factory) library() (*catalog.Library, error) {
	if f.lib == nil {
		dir, err := f.chainsDir()
		if err != nil {
			return nil, err
		}
		opts, err := f.chainOptions()
		if err != nil {
			return nil, err
		}
		f.lib = &catalog.Library{Dir: dir, Opts: opts}
	}
	return f.lib, nil
}

// resolveChain finds a chain by name in the chains dir (loading only its
// file), or by path, each once per process.
func (f *factory) resolveChain(arg string) (*chain.Loaded, error) {
	lib, err := f.library()
	if err != nil {
		return nil, err
	}
	return lib.Resolve(arg)
}

// catalog loads every chain of the chains dir (once per process).
func (f *factory) catalog() (*catalog.Catalog, error) {
	lib, err := f.library()
	if err != nil {
		return nil, err
	}
	return lib.Catalog()
}

// called finds what steps call outside their own file, in the library.
func (f *factory) called() catalog.Resolver { return catalog.Resolver{Open: f.library} }

// calls are the resolvers of chain, workflow and script steps.
func (f *factory) calls() run.Resolvers {
	r := f.called()
	return run.Resolvers{Chains: r.Chain, Workflows: r.Workflow, Scripts: r.Script}
}

// cacheStore is the LLM answer cache: CHAINRUN_CACHE_DIR > config
// cache_dir > $XDG_CACHE_HOME/chainrun (~/.cache/chainrun).
func (f *factory) cacheStore() (*cache.Store, error) {
	dir, err := f.dataDir(keyCacheDir, "XDG_CACHE_HOME", ".cache", "CHAINRUN_CACHE_DIR")
	if err != nil {
		return nil, err
	}
	return cache.Open(dir), nil
}

// stateStore is where runs are saved: CHAINRUN_STATE_DIR > config
// state_dir > $XDG_STATE_HOME/chainrun (~/.local/state/chainrun).
func (f *factory) stateStore() (*store.Store, error) {
	dir, err := f.dataDir(keyStateDir, "XDG_STATE_HOME", filepath.Join(".local", "state"), "CHAINRUN_STATE_DIR")
	if err != nil {
		return nil, err
	}
	s, err := store.OpenDurable(dir, f.v.GetString(keyDurability))
	if err != nil {
		return nil, usagef("%v (from --durability, CHAINRUN_DURABILITY or durability in config)", err)
	}
	r, _ := store.ReadRetention("", f.v.Get("retention")) // checked when config was read
	s.SetRetention(r)
	return s, nil
}

// runID is the id of the saved run a reference names (last, an id, or a
// part of one only one run's id begins or ends with), and its store.
func (f *factory) runID(ref string) (*store.Store, string, error) {
	st, err := f.stateStore()
	if err != nil {
		return nil, "", err
	}
	id, err := st.ResolveUnder(ref, f.runsUnder())
	return st, id, err
}

// savedRun reads the saved run a reference names.
func (f *factory) savedRun(ref string) (string, *store.Saved, error) {
	st, id, err := f.runID(ref)
	if err != nil {
		return "", nil, err
	}
	saved, err := st.Summary(id)
	return id, saved, err
}

// dataDir is the directory config key names, else chainrun's under the
// XDG base directory xdg names, else under home/fallback.
func (f *factory) dataDir(key, xdg, fallback, envHint string) (string, error) {
	v, err := f.config()
	if err != nil {
		return "", err
	}
	if dir := v.GetString(key); dir != "" {
		return dir, nil
	}
	dir, ok := project.UserDir(xdg, fallback)
	if !ok {
		return "", usagef("no %s directory: set %s", strings.TrimSuffix(key, "_dir"), envHint)
	}
	return dir, nil
}

// registry builds the model providers: the built-in ones and config
// providers, keys and base URLs read from the environment.
func (f *factory) registry() (*llm.Registry, error) {
	v, err := f.config()
	if err != nil {
		return nil, err
	}
	getenv, err := project.KeysGetenv(v, os.LookupEnv)
	if err != nil {
		return nil, err
	}
	r, err := llm.RegistryFrom(llm.Settings{Providers: v.Get("providers"), Aliases: v.Get(keyModelAliases), DecodeParams: ask.DecodeParams,
		DefaultProvider: v.GetString(keyDefaultProvider), Concurrency: v.GetInt(keyMaxParallelLLM), File: v.File()}, getenv)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return r, nil
}

// defaultModel is the model of agent steps that name none: --model, else
// CHAINRUN_MODEL, else config default_model.
func (f *factory) defaultModel() string {
	v, err := f.config()
	if err != nil {
		return ""
	}
	if m := v.GetString(keyModel); m != "" {
		return m
	}
	return v.GetString(keyDefaultModel)
}

// prices is what models cost: config `prices` (USD per million tokens,
// {input, output}, by provider/model or model name prefix) before the
// built-in list prices.
func (f *factory) prices() (*llm.Prices, error) {
	v, err := f.config()
	if err != nil {
		return nil, err
	}
	p, err := llm.PricesFrom(v.Get("prices"))
	if err != nil {
		if file := v.File(); file != "" {
			return nil, usagef("%s: %v", file, err)
		}
		return nil, usagef("%v", err)
	}
	return p, nil
}
