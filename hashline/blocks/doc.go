// Package blocks resolves the block locators of the patch language (docs/contract.md §10.4):
// "the syntactic block that opens at line N", for PUT N*:, PUT >N*: and
// CUT N*. It is the only package with cgo: every tree-sitter grammar lives
// behind this one package, so nothing else recompiles C.
//
// # The block at line N
//
// Lines are 1-based, in the normalized text (LF endings, no BOM). A node is
// placed by its text: it starts at its first non-space byte and ends after
// its last byte that is neither space nor part of a comment. The block that
// opens at line N is the outermost named node that starts at the first
// non-space byte of line N, ends on a later line, and can be a block. A node
// cannot be a block when it is the whole file (the root; for JSON also the
// top-level value), a comment, or a transparent container: a run of children
// with no opening token of its own (a Python block, a YAML mapping, a
// markdown list), whose first line opens its first child instead. The span is
// N through the node's last line, and that last line may go on after the node
// only with list separators (, and ;) and comments; anything else would be
// taken by a whole-line edit too, so the line is declined with the plain
// range that would take it.
//
// The first rule of docs/contract.md §10.4 (leading attached nodes are separate): decorators,
// attributes and annotations are their own nodes. A declaration's own first
// line resolves to the declaration without them, even where the grammar
// starts the declaration at its first decorator (JavaScript classes, Java
// annotations, C++ [[attributes]]). The first line of a run resolves to the
// run and the declaration together (Python's decorated_definition, a Rust
// #[attribute] run and the item after it, TypeScript's decorators beside a
// method). A later member of the run is only itself: declined when it is one
// line, with a reason naming the run's first line and the declaration's line,
// and resolved to itself when it spans lines.
//
// A doc comment attached to a declaration is such a node too. It is a run
// of comment lines, each holding nothing but comments, with no blank or
// other line inside it; each line a doc comment by the language's
// convention (below), the middle and the last line of a block comment
// taking the convention of the line that opens it; and its last line
// directly followed, with no blank line, by the first line of a
// declaration that is itself a block (the line resolves, to the
// declaration or to the decorators or attributes above it and the
// declaration). The run's first line resolves to the run and that span
// together: the doc comment, any decorators or attributes, and the
// declaration. The declaration's own line, and its first decorator's,
// resolve without the doc comment, as before. A later line of the run
// declines, naming the run's first line and the line the run documents.
// The run is only what is adjacent to the declaration: a comment line that
// is no doc comment ends it, and is standalone.
//
// The conventions, by language:
//
//   - Rust: /// lines and /** */ blocks (outer doc comments). The inner
//     forms //! and /*! document what encloses them and never attach.
//   - Go: any // or /* */ comment directly above a top-level function,
//     method, type, var or const declaration (godoc). An import is not a
//     top-level declaration, and a comment inside a body or above a field
//     documents nothing here.
//   - JavaScript, TypeScript, TSX, JSX, Java, CSS: /** */ blocks (JSDoc,
//     TSDoc, Javadoc). C and C++: /** */ blocks and /// lines (Doxygen).
//     TypeScript's /// lines are compiler directives, not documentation.
//   - Python: # lines directly above a def, a class or a decorated
//     definition. Ruby: # lines directly above a def (def self. too), a
//     class or a module. Bash: # lines directly above a function
//     definition. A #! interpreter line that opens the file is never one.
//   - Lua: --- lines (LDoc, and LuaLS annotations such as ---@param).
//   - YAML, TOML, Markdown, HTML, JSON: no doc comments.
//
// Everywhere, a comment that opens with more of its delimiter (////, /***,
// ----) is a banner, not documentation, and /**/ is an empty comment. Where
// the comment's syntax marks it as documentation (///, /**, ---), the
// declaration may be any block but a statement that declares nothing:
// control flow, a return or throw, an import, a preprocessor conditional.
//
// Every other comment is standalone and never a block: one separated from
// the code by a blank line (a license header), one above a one-line
// statement or a statement that declares nothing, a trailing comment, a
// comment that shares its line with code. Its lines decline, and a comment
// above or below a construct stays outside that construct's span, even
// where a grammar files a trailing comment inside the construct before it
// (YAML, TOML) or starts a declaration at the comments above it (Lua): the
// line such a declaration opens on is its first line of code.
//
// The second rule of docs/contract.md §10.4 (markdown headings open sections): a heading at the top
// level of the document, ATX or setext, covers its section through deeper
// headings up to the next heading of the same or a higher level, and ends at
// the last non-blank line before it, so replacing a section keeps the blank
// line that separates it from the next.
//
// Every other line declines with a reason that names what the line is
// (blank, a standalone comment, a later line of a doc comment, the last line
// of a construct with that construct's plain range, a line inside one, a
// one-line construct with its plain range N.=N) so the caller can pick the
// right line or a plain range. A file that does not parse cleanly (no ERROR
// or MISSING node), that is larger than 4 MiB, that nests past the limits
// the parser stands (depth.go: brackets or HTML elements 1,024 deep, a
// markdown line opening 200 block quotes or lists), or whose type has no
// grammar declines as a whole.
//
// A block may fill a place its parent requires: the JSX element a return
// statement holds, the value after "x =". Replacing it (PUT N*:) is the
// common use; removing it (CUT N*) leaves the parent incomplete, as removing
// that construct any other way would.
//
// # Outlines
//
// Outline lists a file's declarations (functions, methods, classes, types,
// impl blocks, top-level constants and variables, markdown's section
// headings, the top-level keys of JSON, YAML and TOML), nested by
// containment, by per-language rules of which node types declare what
// (outline_rules.go). A symbol's lines are never worked out on their own:
// they are the span the resolver gives the first line of the doc comment,
// decorators or attributes above the declaration that resolves to a block
// ending where the declaration ends, else its own line's. So the range an
// outline shows is what PUT N*: on its first line replaces, and a
// declaration of one line, which opens no block, is that one line.
//
// # Languages
//
// One table (languages.go) maps extensions and exact base names to grammars.
// JSON has no grammar of its own here: it is read through the JavaScript
// grammar as "(" + text + "\n)", accepted only when the program is that one
// parenthesized JSON value, and for .json also only when encoding/json
// accepts the text. JavaScript files that declare @flow are read through the
// TSX grammar when the JavaScript grammar rejects their type annotations
// (that grammar reads most Flow type syntax, maybe types and exact objects
// included); Flow syntax it does not read declines like any syntax error.
// Markdown's grammar accepts every text, so a markdown file always parses.
//
// Parsers and trees are C objects: each call makes its own and frees them,
// which keeps a Resolver safe for concurrent use.
package blocks
