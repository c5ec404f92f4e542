package chain

import (
	"github.com/chainrun/chainrun/pkg/interp"
	"github.com/theory/jsonpath"
)

// The names below are pkg/interp's, kept here so that the engine, the
// commands and the durable worker name a chain's templates and
// expressions as they always have.
type (
	// Template is a text with {references} (interp.Template).
	Template = interp.Template
	// Ref is one reference inside a template (interp.Ref).
	Ref = interp.Ref
	// Resolver answers a reference when a template renders.
	Resolver = interp.Resolver
	// Expression is a compiled expr-lang expression (interp.Expression).
	Expression = interp.Expression
	// Mapped is a value whose $. texts are JSONPaths (interp.Mapped).
	Mapped = interp.Mapped
)

// ParseTemplate splits text into literals and references (interp).
func ParseTemplate(text string) *Template { return interp.ParseTemplate(text) }

// Literal is a template of text alone (interp).
func Literal(text string) *Template { return interp.Literal(text) }

// IsIdentifier reports whether s is a variable name a template can
// reference (interp).
func IsIdentifier(s string) bool { return interp.IsIdentifier(s) }

// ShellQuote quotes s as one word of a POSIX shell (interp).
func ShellQuote(s string) string { return interp.ShellQuote(s) }

// NormalizeYAML turns YAML-decoded maps into JSON-ready ones (interp).
func NormalizeYAML(v any) any { return interp.NormalizeYAML(v) }

// ExprValue is how a variable's text appears inside an expression
// (interp).
func ExprValue(text string) any { return interp.ExprValue(text) }

// ConditionValue is how a variable's text appears inside a condition
// (interp).
func ConditionValue(text string) any { return interp.ConditionValue(text) }

// Select is what a JSONPath reads in doc, as mcp-flowgate reads it
// (interp).
func Select(p *jsonpath.Path, doc any) any { return interp.Select(p, doc) }

// The unexported names below are kept for files that other work is
// changing at the same time; the rest of this package names interp.
var (
	compileExpression = interp.CompileExpression
	compileMapped     = interp.CompileMapped
)

type unknownNamesError = interp.UnknownNamesError

// parseLooseTemplate is ParseTemplate for a file whose reading takes
// loose references (OCC's), whose fallbacks may also be written
// unquoted, as OCC's resolver reads them: {x|none}, {x|two words}.
func parseLooseTemplate(text string) *Template {
	return interp.ParseSyntax(text, interp.Syntax{Double: true, Loose: true})
}
