package blocks

import (
	"path"
	"path/filepath"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/bash"
	"github.com/smacker/go-tree-sitter/c"
	"github.com/smacker/go-tree-sitter/cpp"
	"github.com/smacker/go-tree-sitter/css"
	"github.com/smacker/go-tree-sitter/golang"
	"github.com/smacker/go-tree-sitter/html"
	"github.com/smacker/go-tree-sitter/java"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/lua"
	markdown "github.com/smacker/go-tree-sitter/markdown/tree-sitter-markdown"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/ruby"
	"github.com/smacker/go-tree-sitter/rust"
	"github.com/smacker/go-tree-sitter/toml"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
	"github.com/smacker/go-tree-sitter/yaml"
)

// jsonMode says how a language reaches the JavaScript grammar as JSON.
type jsonMode int

const (
	notJSON jsonMode = iota
	// jsonLoose accepts what the JavaScript grammar accepts inside a JSON
	// value: comments and trailing commas (JSONC, as tsconfig.json uses).
	jsonLoose
	// jsonStrict also requires encoding/json to accept the text.
	jsonStrict
)

// set is a small set of tree-sitter node type names.
type set map[string]bool

func setOf(names ...string) set {
	s := make(set, len(names))
	for _, n := range names {
		s[n] = true
	}
	return s
}

// lang is one row of the language table: the grammar and the few node types
// the resolution rules must know about. Everything else is generic, so a new
// grammar needs a row here and its own golden tests, nothing more.
type lang struct {
	name    string
	grammar *sitter.Language
	exts    []string // lower-case, with the dot
	bases   []string // exact base names, for files known by name

	json jsonMode
	// flow: a file whose leading comments carry the @flow pragma is written
	// in Flow, which the JavaScript grammar cannot read. When the JavaScript
	// grammar rejects such a file it is read with the TSX grammar, whose type
	// syntax Flow shares for the most part; a file that neither reads cleanly
	// is declined like any other.
	flow bool

	// transparent lists containers that are only a run of their children and
	// have no opening token of their own (a Python block, a YAML mapping).
	// When one starts with its first child, the line opens that child, not
	// the container.
	transparent set
	// attached lists the nodes that attach to the declaration after them:
	// decorators, attributes, annotations (docs/contract.md §10.4, first rule).
	attached set
	// comments lists comment-like node types whose names do not say
	// "comment" (every type containing "comment" is a comment anyway).
	comments set
	// ignored lists nodes that are never blocks but are no comments either
	// (markdown's continuation markers at the start of a quoted line, and
	// the text of a paragraph).
	ignored set
	// sections: headings open sections (markdown, docs/contract.md §10.4, second rule).
	sections bool

	// doc says which comments document the declaration below them (docs/contract.md §10.4,
	// first rule); nil for a language without doc comments, whose comments
	// all stay standalone. It is given the comment's text from its opening
	// delimiter on, and whether the comment opens the file.
	doc func(text string, fileStart bool) bool
	// docTargets, when set, lists the declarations a doc comment can
	// document, for the languages whose doc comments are ordinary comments
	// placed by convention (Go, Python, Ruby, Bash). Where the comment's
	// own syntax marks it as documentation (///, /**, ---), it documents
	// whatever block follows it but a statement that declares nothing
	// (declaresNothing).
	docTargets set
	// docTopLevel: the declaration must also be a child of the root (Go's
	// doc comments are on top-level declarations).
	docTopLevel bool
	// delims, when set, narrows commentChars for this language: every
	// comment's last byte is one of them, or the line it ends on holds one.
	// Most lines of code hold an = or a -, so where the language allows it
	// this spares the search for a comment at the end of most declarations.
	delims string
	// mayDeclare, when set, reads from a text alone whether it may declare
	// a name that accept accepts (screen.go).
	mayDeclare func(text string, accept func(name string) bool) bool
}

// Doc comment conventions, by the comment's opening text. A comment that
// opens with more of the same delimiter (////, /***, ----) is a banner or
// a rule, not documentation, in every one of these conventions.

// docBlock is a /** ... */ block: JSDoc, TSDoc, Javadoc, Doxygen, rustdoc.
func docBlock(s string) bool {
	return strings.HasPrefix(s, "/**") && !strings.HasPrefix(s, "/***") && !strings.HasPrefix(s, "/**/")
}

// docSlashes is a /// line: rustdoc's outer doc, Doxygen's C and C++ doc.
func docSlashes(s string) bool {
	return strings.HasPrefix(s, "///") && !strings.HasPrefix(s, "////")
}

// rustDoc is an outer doc comment. The inner ones (//! and /*!) document
// what encloses them, never the item below.
func rustDoc(s string, _ bool) bool { return docSlashes(s) || docBlock(s) }

// blockDoc is the /** ... */ convention alone. TypeScript's /// lines are
// compiler directives, not documentation.
func blockDoc(s string, _ bool) bool { return docBlock(s) }

// doxygenDoc is Doxygen's Javadoc style and its /// lines.
func doxygenDoc(s string, _ bool) bool { return docSlashes(s) || docBlock(s) }

// goDoc: godoc reads any comment directly above a top-level declaration.
func goDoc(string, bool) bool { return true }

// hashDoc: pydoc, RDoc and shell conventions read the # lines directly above
// a definition. A #! line that opens the file is the interpreter line.
func hashDoc(s string, fileStart bool) bool {
	return strings.HasPrefix(s, "#") && !(fileStart && strings.HasPrefix(s, "#!"))
}

// luaDoc is LDoc's and LuaLS's --- line.
func luaDoc(s string, _ bool) bool {
	return strings.HasPrefix(s, "---") && !strings.HasPrefix(s, "----")
}

var (
	jsGrammar  = javascript.GetLanguage()
	tsxGrammar = tsx.GetLanguage()

	jsAttached = setOf("decorator")
	// JSX text is an element's content, not a construct.
	jsIgnored = setOf("jsx_text")
)

// languages is the table of supported languages, one row each.
var languages = []*lang{
	{name: "rust", grammar: rust.GetLanguage(), exts: []string{".rs"},
		attached: setOf("attribute_item"), doc: rustDoc},
	{name: "typescript", grammar: typescript.GetLanguage(), exts: []string{".ts", ".mts", ".cts"},
		attached: jsAttached, doc: blockDoc},
	{name: "tsx", grammar: tsxGrammar, exts: []string{".tsx"},
		attached: jsAttached, ignored: jsIgnored, doc: blockDoc},
	{name: "javascript", grammar: jsGrammar, exts: []string{".js", ".mjs", ".cjs"},
		attached: jsAttached, ignored: jsIgnored, flow: true, doc: blockDoc},
	{name: "jsx", grammar: jsGrammar, exts: []string{".jsx"},
		attached: jsAttached, ignored: jsIgnored, flow: true, doc: blockDoc},
	{name: "json", grammar: jsGrammar, exts: []string{".json"}, json: jsonStrict},
	// TypeScript reads its config files as JSON with comments.
	{name: "jsonc", grammar: jsGrammar, exts: []string{".jsonc"}, bases: []string{"tsconfig.json", "jsconfig.json"},
		json: jsonLoose},
	{name: "markdown", grammar: markdown.GetLanguage(), exts: []string{".md", ".markdown"},
		// Sections are computed from the headings (markdown.go), and the text
		// inside paragraphs and code fences is content, not constructs.
		transparent: setOf("list"), ignored: setOf("section", "block_continuation", "inline", "code_fence_content"),
		sections: true},
	{name: "css", grammar: css.GetLanguage(), exts: []string{".css"}, doc: blockDoc},
	{name: "python", grammar: python.GetLanguage(), exts: []string{".py", ".pyi", ".pyw"},
		transparent: setOf("block"), attached: setOf("decorator"),
		doc: hashDoc, docTargets: setOf("function_definition", "class_definition", "decorated_definition")},
	{name: "toml", grammar: toml.GetLanguage(), exts: []string{".toml"}, bases: []string{"Cargo.lock", "Pipfile", "poetry.lock"}},
	{name: "yaml", grammar: yaml.GetLanguage(), exts: []string{".yaml", ".yml"},
		transparent: setOf("document", "block_node", "block_mapping", "block_sequence")},
	// An element's text is its content, not a construct.
	{name: "html", grammar: html.GetLanguage(), exts: []string{".html", ".htm"},
		ignored: setOf("text", "raw_text")},
	{name: "bash", grammar: bash.GetLanguage(), exts: []string{".sh", ".bash"},
		bases:   []string{".bashrc", ".bash_profile", ".bash_aliases", ".bash_logout"},
		ignored: setOf("heredoc_body"), doc: hashDoc, docTargets: setOf("function_definition")},
	// Go's top-level declarations, as its specification lists them: an import
	// declaration is not one, and godoc gives it no documentation.
	{name: "go", grammar: golang.GetLanguage(), exts: []string{".go"},
		// A Go comment is a // line, which holds its /, or a /* */ block,
		// which ends with one.
		doc: goDoc, docTopLevel: true, delims: "/", mayDeclare: goMayDeclare,
		docTargets: setOf("function_declaration", "method_declaration", "type_declaration", "var_declaration", "const_declaration")},
	{name: "c", grammar: c.GetLanguage(), exts: []string{".c", ".h"},
		attached: setOf("attribute_declaration"), doc: doxygenDoc},
	{name: "cpp", grammar: cpp.GetLanguage(), exts: []string{".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"},
		attached: setOf("attribute_declaration"), doc: doxygenDoc},
	{name: "java", grammar: java.GetLanguage(), exts: []string{".java"},
		attached: setOf("marker_annotation", "annotation"), doc: blockDoc},
	{name: "ruby", grammar: ruby.GetLanguage(), exts: []string{".rb", ".rake", ".gemspec"}, bases: []string{"Rakefile", "Gemfile"},
		transparent: setOf("body_statement", "block_body", "then", "do"),
		doc:         hashDoc, docTargets: setOf("method", "singleton_method", "class", "module")},
	// This Lua grammar writes its documentation comments (---@param,
	// ---@class) as emmy_* and documentation_* nodes, files them inside the
	// declaration below them, and reads a function's statements as a
	// function_body that starts at the first of them. It expects a
	// declaration after a --- line: a statement there is misread (the
	// keyword of an if as a name) or rejected.
	{name: "lua", grammar: lua.GetLanguage(), exts: []string{".lua"},
		transparent: setOf("function_body", "fieldlist"),
		comments: setOf("emmy_documentation", "documentation_brief", "documentation_class", "documentation_config",
			"documentation_command", "documentation_tag", "documentation_usage"),
		doc: luaDoc},
}

var (
	byExt  = map[string]*lang{}
	byBase = map[string]*lang{}
)

func init() {
	for _, l := range languages {
		for _, e := range l.exts {
			byExt[e] = l
		}
		for _, b := range l.bases {
			byBase[b] = l
		}
	}
}

// lookup finds the language row for path, nil when there is none. An exact
// base name wins over the extension; extensions match in any case.
func lookup(name string) *lang {
	base := path.Base(filepath.ToSlash(name))
	if l, ok := byBase[base]; ok {
		return l
	}
	return byExt[strings.ToLower(filepath.Ext(base))]
}

func (l *lang) isComment(t string) bool {
	return strings.Contains(t, "comment") || l.comments[t]
}
