// Package confine keeps the paths a model or a decision's arguments chose
// inside their directory: a path made relative to it and refused when its
// shape leaves it, and every open, stat and write done through an os.Root
// there, so ".." and symbolic links that lead out fail whatever the
// path's shape. It also refuses to read or write what is not a regular
// file (a FIFO or a device could block for ever). Its refusals are
// Refusal errors, which a step takes as failures no retry mends.
//
// It is a leaf under pkg/run, which decides when a path is confined
// (confine.go there) and calls it; it must not import pkg/run or anything
// that does. It may import, of this module: fsutil, tools.
package confine
