// Package jsonstream writes and reads JSON a piece at a time, so that a
// document as large as every output of a run (a result, a journal line)
// never sits whole in memory on top of the values it holds. Write gives
// exactly what encoding/json gives (json.Marshal, or json.MarshalIndent
// with an indent); only the memory it takes differs. Members reads an
// object one member at a time.
//
// It imports nothing of this module.
package jsonstream
