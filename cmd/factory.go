package cmd

import (
	"os"
	"path/filepath"

	"github.com/spf13/viper"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/iostreams"
	"github.com/chainrun/chainrun/pkg/render/prompt"
	"github.com/chainrun/chainrun/pkg/run"
)

// factory carries what commands share: the streams and the configuration
// of this process. Config is loaded lazily, once flags are parsed.
type factory struct {
	io     *iostreams.IOStreams
	v      *viper.Viper
	loaded bool
	cfgErr error
	cat    *chain.Catalog
	files  map[string]*chain.Loaded
	// getwd is the directory chainrun was started in.
	getwd func() (string, error)
	// term is the person at the terminal, shared by every prompt.
	term *prompt.Terminal
	// engine builds the engine commands run chains on: this process's
	// (localEngine); tests put one of their own here.
	engine func(engineSetup) run.Engine
}

func newFactory(io *iostreams.IOStreams) *factory {
	return &factory{io: io, v: viper.New(), getwd: os.Getwd, term: prompt.New(io.In, io.ErrOut), engine: localEngine}
}

// config returns the loaded configuration (flags > env > file).
func (f *factory) config() (*viper.Viper, error) {
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
	return chain.Options{LenientVariables: !v.GetBool("strict_variables")}, nil
}

// resolveChain finds a chain by name in the chains dir, or by path. The
// catalog is read once per process, so a chain called many times is
// loaded once, and a file edited during a run does not change it.
func (f *factory) resolveChain(arg string) (*chain.Loaded, error) {
	opts, err := f.chainOptions()
	if err != nil {
		return nil, err
	}
	if path, ok := chain.FilePath(arg); ok {
		if l, cached := f.files[path]; cached {
			return l, nil
		}
		l, err := chain.LoadFile(path, opts)
		if err != nil {
			return nil, err
		}
		if f.files == nil {
			f.files = map[string]*chain.Loaded{}
		}
		f.files[path] = l
		return l, nil
	}
	cat, err := f.catalog()
	if err != nil {
		return nil, err
	}
	return cat.Find(arg)
}

// catalog loads every chain of the chains dir (once per process).
func (f *factory) catalog() (*chain.Catalog, error) {
	if f.cat != nil {
		return f.cat, nil
	}
	dir, err := f.chainsDir()
	if err != nil {
		return nil, err
	}
	opts, err := f.chainOptions()
	if err != nil {
		return nil, err
	}
	cat, err := chain.OpenCatalog(dir, opts)
	if err != nil {
		return nil, err
	}
	f.cat = cat
	return cat, nil
}

// calledChain finds the chain a chain step calls: a name in the chains
// dir, or a chain file's path.
func (f *factory) calledChain(name string) (*chain.Chain, error) {
	l, err := f.resolveChain(name)
	if err != nil {
		return nil, err
	}
	return l.Chain, nil
}
