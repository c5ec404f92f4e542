package store

import "github.com/chainrun/chainrun/pkg/fsutil"

// maxStateFile bounds a run's record or snapshot as read back. chainrun
// wrote them, so the bound never refuses one of its own; it stops a
// device put in their place from being read for good.
const maxStateFile = 1 << 30

// readStateFile reads a file of a run's directory whole. The directory
// is the user's to edit, so the name may now be a FIFO nobody writes, a
// device or a directory: each is refused at once (a
// *fsutil.NotRegularError), as a file cut short is, instead of holding
// every reader of the runs until a writer comes.
func readStateFile(path string) ([]byte, error) { return fsutil.ReadRegular(path, maxStateFile) }
