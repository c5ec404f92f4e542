package cmd

import (
	"os"
	"path/filepath"

	"github.com/spf13/viper"

	"github.com/chainrun/chainrun/pkg/chain"
	"github.com/chainrun/chainrun/pkg/iostreams"
)

// factory carries what commands share: the streams and the configuration
// of this process. Config is loaded lazily, once flags are parsed.
type factory struct {
	io     *iostreams.IOStreams
	v      *viper.Viper
	loaded bool
	cfgErr error
	cat    *chain.Catalog
	// getwd is the directory chainrun was started in.
	getwd func() (string, error)
}

func newFactory(io *iostreams.IOStreams) *factory {
	return &factory{io: io, v: viper.New(), getwd: os.Getwd}
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

// resolveChain finds a chain by name in the chains dir, or by path.
func (f *factory) resolveChain(arg string) (*chain.Loaded, error) {
	dir, err := f.chainsDir()
	if err != nil {
		return nil, err
	}
	opts, err := f.chainOptions()
	if err != nil {
		return nil, err
	}
	return chain.Resolve(dir, arg, opts)
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
