// Package dotenv reads .env files: the KEY=VALUE files docker compose,
// Dagu and most twelve-factor tools read, so that settings kept beside a
// project (a token, a host, a region) reach a chain's commands without
// being written into the chain. parse.go is the syntax (errors that name
// the file and line and never show a value), expand.go the variables in
// values (${NAME}, ${NAME:-default}: Docker Compose's interpolation, by
// compose-go's own code), read.go the files (which may be missing, when
// marked optional) and how later files win over earlier ones.
//
// Values are returned, never put into this process's environment: the
// engine hands them to the commands of one run, so two runs in one
// process (chainrun mcp) never see each other's.
//
// It may import, of this module: fsutil.
package dotenv
