package blocks

import (
	"slices"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// The outline rules of each language: which nodes declare what, by the
// node types of its grammar. Every language of the table in languages.go
// has a row here (markdown's outline is its section headings, markdown.go).

// rule reads the declarations of one node; top says the node is at the
// top level of the file, where variables and constants are listed.
type rule = func(p *parsed, n *sitter.Node, top bool) []decl

// text is n's text without the space around it.
func (p *parsed) text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return strings.TrimSpace(string(p.src[p.start(n):p.end(n)]))
}

// field is the text of n's child in field f.
func (p *parsed) field(n *sitter.Node, f string) string { return p.text(n.ChildByFieldName(f)) }

// childOf is n's first named child of one of the types, or nil.
func (p *parsed) childOf(n *sitter.Node, types ...string) *sitter.Node {
	for _, c := range p.namedChildren(n) {
		for _, t := range types {
			if p.typ(c) == t {
				return c
			}
		}
	}
	return nil
}

// named declares the node by the text of its name field; body, when not
// empty, is the field or child type whose children are its members.
func named(kind, body string) rule {
	return func(p *parsed, n *sitter.Node, _ bool) []decl {
		name := p.field(n, "name")
		if name == "" {
			return nil
		}
		return []decl{{name: name, kind: kind, members: p.bodyOf(n, body)}}
	}
}

// bodyOf finds the members' node: n's child in field f, else its first
// named child of type f; nil when f is empty or there is none.
func (p *parsed) bodyOf(n *sitter.Node, f string) *sitter.Node {
	if f == "" {
		return nil
	}
	if b := n.ChildByFieldName(f); b != nil {
		return b
	}
	return p.childOf(n, f)
}

// classNamed is named for a class-like declaration: the functions among
// its members are its methods.
func classNamed(kind, body string) rule {
	r := named(kind, body)
	return func(p *parsed, n *sitter.Node, top bool) []decl {
		ds := r(p, n, top)
		for i := range ds {
			ds[i].class = true
		}
		return ds
	}
}

// qualifiers spells the scope separators of qualified names one way, and
// drops the space a grammar leaves in them.
var qualifiers = strings.NewReplacer("::", ".", ":", ".", " ", "", "\t", "", "\n", "")

// splitQualified splits a dotted name (M.setup, Foo:method, A::B) into the
// scope before its last part and that part.
func splitQualified(s string) (scope, name string) {
	s = qualifiers.Replace(s)
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[:i], s[i+1:]
	}
	return "", s
}

// hasToken reports whether n has an unnamed child that is the token tok.
func (p *parsed) hasToken(n *sitter.Node, tok string) bool {
	for _, c := range p.childrenOf(n).all(p) {
		if !p.named(c) && p.typ(c) == tok {
			return true
		}
	}
	return false
}

// group lists a parenthesized group of specs (Go's const ( ... )) under
// a row of its own, named after its first members.
func group(kind string, names []string, members *sitter.Node) decl {
	label := names
	if len(label) > 3 {
		label = append(label[:3:3], "…")
	}
	return decl{name: "(" + strings.Join(label, ", ") + ")", kind: kind, members: members, group: true}
}

var (
	goRules = &outlineRules{decls: map[string]rule{
		"function_declaration": goFunction,
		"method_declaration":   goFunction,
		"type_declaration":     goGroup("type", "type_spec", "type_alias"),
		"const_declaration":    goGroup("const", "const_spec"),
		"var_declaration":      goGroup("var", "var_spec"),
		"type_spec":            goSpec("type"),
		"type_alias":           goSpec("type"),
		"const_spec":           goSpec("const"),
		"var_spec":             goSpec("var"),
	}}

	cRules = &outlineRules{
		decls: map[string]rule{
			"function_definition":  cFunction,
			"declaration":          cDeclaration,
			"type_definition":      cTypedef,
			"struct_specifier":     cTagged("struct"),
			"union_specifier":      cTagged("union"),
			"enum_specifier":       cTagged("enum"),
			"class_specifier":      cTagged("class"),
			"preproc_def":          named("macro", ""),
			"preproc_function_def": named("macro", ""),
			"namespace_definition": func(p *parsed, n *sitter.Node, _ bool) []decl {
				name := p.field(n, "name")
				if name == "" {
					name = "(anonymous)"
				}
				return []decl{{name: name, kind: "namespace", members: n.ChildByFieldName("body")}}
			},
			"alias_declaration": named("type", ""),
		},
		through: setOf("preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef",
			"linkage_specification", "declaration_list", "field_declaration_list"),
		wraps: setOf("template_declaration"),
	}

	rustRules = &outlineRules{
		decls: map[string]rule{
			"function_item":           named("fn", ""),
			"function_signature_item": named("fn", ""),
			"struct_item":             named("struct", ""),
			"enum_item":               named("enum", ""),
			"union_item":              named("union", ""),
			"type_item":               named("type", ""),
			"const_item":              named("const", ""),
			"static_item":             named("static", ""),
			"macro_definition":        named("macro", ""),
			"trait_item":              classNamed("trait", "body"),
			"mod_item":                named("mod", "body"),
			"impl_item":               rustImpl,
		},
		through: setOf("declaration_list", "foreign_mod_item"),
	}

	javaRules = &outlineRules{
		decls: map[string]rule{
			"class_declaration":               classNamed("class", "body"),
			"interface_declaration":           classNamed("interface", "body"),
			"enum_declaration":                classNamed("enum", "body"),
			"record_declaration":              classNamed("record", "body"),
			"annotation_type_declaration":     classNamed("annotation", "body"),
			"method_declaration":              named("method", ""),
			"constructor_declaration":         named("constructor", ""),
			"compact_constructor_declaration": named("constructor", ""),
		},
		through: setOf("class_body", "interface_body", "enum_body", "enum_body_declarations", "annotation_type_body"),
	}

	jsRules = &outlineRules{
		decls: map[string]rule{
			"function_declaration":           named("function", ""),
			"generator_function_declaration": named("function", ""),
			"function_signature":             named("function", ""),
			"class_declaration":              classNamed("class", "body"),
			"abstract_class_declaration":     classNamed("class", "body"),
			"method_definition":              named("method", ""),
			"abstract_method_signature":      named("method", ""),
			"interface_declaration":          named("interface", ""),
			"type_alias_declaration":         named("type", ""),
			"enum_declaration":               named("enum", ""),
			"internal_module":                named("namespace", "body"),
			"module": func(p *parsed, n *sitter.Node, top bool) []decl {
				ds := named("module", "body")(p, n, top)
				for i := range ds {
					ds[i].name = strings.Trim(ds[i].name, `"'`)
				}
				return ds
			},
			"lexical_declaration":  jsVariables,
			"variable_declaration": jsVariables,
			"expression_statement": jsAssignment,
		},
		through: setOf("export_statement", "ambient_declaration", "statement_block", "class_body"),
	}

	pythonRules = &outlineRules{
		decls: map[string]rule{
			"function_definition":  named("def", ""),
			"class_definition":     classNamed("class", "body"),
			"expression_statement": pythonAssignment,
		},
		through: setOf("decorated_definition", "block"),
	}

	rubyRules = &outlineRules{
		decls: map[string]rule{
			"method":           named("def", ""),
			"singleton_method": named("def", ""),
			"class":            rubyModule("class"),
			"module":           rubyModule("module"),
			"assignment":       rubyConstant,
		},
		through: setOf("body_statement", "singleton_class"),
	}

	luaRules = &outlineRules{
		decls: map[string]rule{
			"function_statement": func(p *parsed, n *sitter.Node, _ bool) []decl {
				scope, name := splitQualified(p.field(n, "name"))
				if name == "" {
					return nil
				}
				return []decl{{name: name, kind: "function", qualify: scope}}
			},
			"variable_declaration": luaVariables,
		},
	}

	bashRules = &outlineRules{
		decls: map[string]rule{
			"function_definition": named("function", ""),
			"variable_assignment": func(p *parsed, n *sitter.Node, top bool) []decl {
				if !top {
					return nil
				}
				return []decl{{name: p.field(n, "name"), kind: "var"}}
			},
		},
	}

	cssRules = &outlineRules{
		decls: map[string]rule{
			"rule_set": func(p *parsed, n *sitter.Node, _ bool) []decl {
				return []decl{{name: p.text(p.childOf(n, "selectors")), kind: "rule"}}
			},
			"media_statement":    cssAtRule("media"),
			"supports_statement": cssAtRule("supports"),
			"at_rule":            cssAtRule("at-rule"),
			"keyframes_statement": func(p *parsed, n *sitter.Node, _ bool) []decl {
				return []decl{{name: p.text(p.childOf(n, "keyframes_name")), kind: "keyframes"}}
			},
		},
		sep: " > ",
	}

	htmlRules = &outlineRules{
		decls: map[string]rule{"element": htmlElement, "script_element": htmlElement, "style_element": htmlElement},
		// An element that is not listed is walked for the ones inside.
		through: setOf("element"),
		sep:     " > ",
	}

	// JSON, YAML and TOML list their top-level keys.
	jsonRules = &outlineRules{decls: map[string]rule{"pair": func(p *parsed, n *sitter.Node, _ bool) []decl {
		return []decl{{name: strings.Trim(p.field(n, "key"), `"`), kind: "key"}}
	}}}

	yamlRules = &outlineRules{
		decls: map[string]rule{
			"block_mapping_pair": yamlKey,
			"flow_pair":          yamlKey,
		},
		through: setOf("document", "block_node", "block_mapping", "flow_node", "flow_mapping"),
	}

	tomlRules = &outlineRules{decls: map[string]rule{
		"pair": func(p *parsed, n *sitter.Node, _ bool) []decl {
			return []decl{{name: tomlKey(p, n), kind: "key"}}
		},
		"table": func(p *parsed, n *sitter.Node, _ bool) []decl {
			return []decl{{name: tomlKey(p, n), kind: "table"}}
		},
		"table_array_element": func(p *parsed, n *sitter.Node, _ bool) []decl {
			return []decl{{name: tomlKey(p, n), kind: "table[]"}}
		},
	}}
)

// outlines maps a language's name to its rules.
var outlines = map[string]*outlineRules{
	"go": goRules, "c": cRules, "cpp": cRules, "rust": rustRules, "java": javaRules,
	"javascript": jsRules, "jsx": jsRules, "typescript": jsRules, "tsx": jsRules,
	"python": pythonRules, "ruby": rubyRules, "lua": luaRules, "bash": bashRules,
	"css": cssRules, "html": htmlRules, "json": jsonRules, "jsonc": jsonRules,
	"yaml": yamlRules, "toml": tomlRules,
	// Markdown's symbols are its section headings.
	"markdown": {},
}

// goFunction reads a Go function or method from its text: func, the
// receiver in parentheses, the name. Asking the tree for the name and the
// receiver costs calls into C (a field is asked for by a name copied into
// C and freed there) for each of a file's declarations; the text says the
// same once it holds no comment before the name. A declaration it cannot
// read that way is asked of the tree.
func goFunction(p *parsed, n *sitter.Node, _ bool) []decl {
	src := p.src[p.start(n):p.end(n)]
	i := len("func")
	for i < len(src) && isSpace(src[i]) {
		i++
	}
	d := decl{kind: "func"}
	if i < len(src) && src[i] == '(' {
		d.kind = "method"
		depth, open := 0, i+1
		for ; i < len(src); i++ {
			if src[i] == '/' {
				return goFunctionOfTree(p, n)
			}
			if src[i] == '(' {
				depth++
			} else if src[i] == ')' {
				if depth--; depth == 0 {
					break
				}
			}
		}
		if i == len(src) {
			return goFunctionOfTree(p, n)
		}
		d.qualify = goReceiverType(string(src[open:i]))
		for i++; i < len(src) && isSpace(src[i]); i++ {
		}
	}
	j := i
	for j < len(src) && isRunByte(src[j]) {
		j++
	}
	if j == i || src[i] >= '0' && src[i] <= '9' {
		return goFunctionOfTree(p, n)
	}
	d.name = string(src[i:j])
	return []decl{d}
}

// goFunctionOfTree reads a Go function or method by the fields of its node.
func goFunctionOfTree(p *parsed, n *sitter.Node) []decl {
	d := decl{name: p.field(n, "name"), kind: "func"}
	if p.typ(n) == "method_declaration" {
		d.kind, d.qualify = "method", goReceiver(p, n.ChildByFieldName("receiver"))
	}
	if d.name == "" {
		return nil
	}
	return []decl{d}
}

// goReceiver is the type a Go method is declared on, read from recv, its
// receiver, without a name, a pointer or type parameters: Set for
// func (s *Set[K]) Add.
func goReceiver(p *parsed, recv *sitter.Node) string {
	if recv == nil {
		return ""
	}
	// The receiver's one parameter is its first named child but for a
	// comment before it; listing every child costs a call into C for each.
	param := recv.NamedChild(0)
	if param != nil && p.typ(param) != "parameter_declaration" {
		param = p.childOf(recv, "parameter_declaration")
	}
	if param == nil {
		return ""
	}
	return goReceiverType(p.text(param))
}

// goReceiverType is the type of a receiver's parameter, param its text
// (s *Set[K], (T), *T): its last word, once the type's parameters are cut
// off, without a pointer or parentheses.
func goReceiverType(param string) string {
	t := param
	if i := strings.IndexByte(t, '['); i >= 0 {
		t = t[:i]
	}
	t = strings.TrimRight(t, " \t\n),")
	t = t[strings.LastIndexAny(t, " \t\n")+1:]
	t = strings.TrimLeft(t, "*( ")
	if i := strings.IndexByte(t, ')'); i >= 0 {
		t = t[:i]
	}
	return strings.TrimSpace(t)
}

// goGroup reads a Go declaration: one spec is the declaration itself, a
// parenthesized group is listed with its specs under it.
func goGroup(kind string, specs ...string) rule {
	return func(p *parsed, n *sitter.Node, _ bool) []decl {
		// The token after the keyword is the group's '(' or the one spec,
		// but for a comment there: most declarations need no listing of
		// their children.
		if p.childCount(n) > 1 {
			switch second := p.child(n, 1); {
			case p.typ(second) == "(":
				return goGrouped(p, n, kind, specs)
			case slices.Contains(specs, p.typ(second)):
				return goSpec(kind)(p, second, true)
			}
		}
		if p.hasToken(n, "(") {
			return goGrouped(p, n, kind, specs)
		}
		var only *sitter.Node
		for _, c := range p.namedChildren(n) {
			if slices.Contains(specs, p.typ(c)) {
				only = c
			}
		}
		if only == nil {
			return nil
		}
		return goSpec(kind)(p, only, true)
	}
}

// goGrouped reads a parenthesized Go declaration.
func goGrouped(p *parsed, n *sitter.Node, kind string, specs []string) []decl {
	var names []string
	for _, c := range p.namedChildren(n) {
		if !slices.Contains(specs, p.typ(c)) {
			continue
		}
		// The group is labelled with its first names.
		if names = append(names, goSpecNames(p, c)...); len(names) > 3 {
			break
		}
	}
	return []decl{group(kind, names, n)}
}

// goSpec reads one spec: one declaration for each name it declares, and
// for a type, what kind of type it is.
func goSpec(kind string) rule {
	return func(p *parsed, n *sitter.Node, _ bool) []decl {
		k := kind
		if kind == "type" {
			switch t := n.ChildByFieldName("type"); {
			case t == nil:
			case p.typ(t) == "struct_type":
				k = "struct"
			case p.typ(t) == "interface_type":
				k = "interface"
			}
		}
		var out []decl
		for _, name := range goSpecNames(p, n) {
			out = append(out, decl{name: name, kind: k})
		}
		return out
	}
}

// goSpecNames are the names a spec declares (var a, b = ...): the
// identifiers it opens with, before its type or its values.
func goSpecNames(p *parsed, n *sitter.Node) []string {
	// Most specs declare one name, which opens them and is followed by
	// neither a ',' nor a comment: the text says which without a call
	// into C. A name is a whole run of letters, digits and underscores.
	start, end := p.start(n), p.start(n)
	for end < p.end(n) && isRunByte(p.src[end]) {
		end++
	}
	if end > start {
		next := firstNonSpace(p.src, end, p.end(n))
		if next < 0 || p.src[next] != ',' && p.src[next] != '/' {
			return []string{string(p.src[start:end])}
		}
	}
	var names []string
	cur := p.cursorAt(n)
	t := p.symbols()
	for ok := cur.GoToFirstChild(); ok; ok = cur.GoToNextSibling() {
		// These nodes are asked nothing again: read them without keeping
		// what they were told.
		c := cur.CurrentNode()
		typ := ""
		if s := c.Symbol(); int(s) < len(t.names) {
			typ = t.names[s]
		}
		switch typ {
		case ",":
		case "identifier", "type_identifier":
			if typ == "type_identifier" && len(names) > 0 {
				return names
			}
			names = append(names, strings.TrimSpace(string(p.src[c.StartByte():c.EndByte()])))
		default:
			return names
		}
	}
	return names
}

// fieldChildren lists n's children in field f: a field may hold several
// (the names of var a, b, the declarators of int a, b).
func (p *parsed) fieldChildren(n *sitter.Node, f string) []*sitter.Node {
	var out []*sitter.Node
	for i, c := range p.childrenOf(n).all(p) {
		if p.named(c) && n.FieldNameForChild(i) == f {
			out = append(out, c)
		}
	}
	return out
}

// cName finds the name a C or C++ declarator declares, through pointers,
// references, arrays, parentheses and function declarators; a C++
// qualified name (Box::set) gives its scope too. function says the name
// is a function's, not a variable's that points to one: the declarator
// right around the name is a function's.
func cName(p *parsed, d *sitter.Node) (scope, name string, function bool) {
	for d != nil {
		switch p.typ(d) {
		case "identifier", "field_identifier", "type_identifier", "destructor_name", "operator_name":
			return "", p.text(d), function
		case "qualified_identifier":
			s, nm := splitQualified(stripTemplateArgs(p.text(d)))
			return s, nm, function
		case "function_declarator":
			function = true
		case "parenthesized_declarator":
		default:
			function = false
		}
		next := d.ChildByFieldName("declarator")
		if next == nil {
			for _, c := range p.namedChildren(d) {
				if t := p.typ(c); strings.HasSuffix(t, "declarator") || strings.HasSuffix(t, "identifier") || t == "destructor_name" || t == "operator_name" {
					next = c
					break
				}
			}
		}
		d = next
	}
	return "", "", function
}

// stripTemplateArgs drops <...> from a C++ name: Box<int>::set is Box::set.
func stripTemplateArgs(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '<':
			depth++
		case r == '>' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func cFunction(p *parsed, n *sitter.Node, _ bool) []decl {
	scope, name, _ := cName(p, n.ChildByFieldName("declarator"))
	if name == "" {
		return nil
	}
	return []decl{{name: name, kind: "func", qualify: scope}}
}

// cDeclaration lists what a top-level declaration declares: prototypes
// and variables.
func cDeclaration(p *parsed, n *sitter.Node, top bool) []decl {
	var out []decl
	for _, d := range p.fieldChildren(n, "declarator") {
		scope, name, function := cName(p, d)
		switch {
		case name == "":
		case function:
			out = append(out, decl{name: name, kind: "func", qualify: scope})
		case top:
			out = append(out, decl{name: name, kind: "var", qualify: scope})
		}
	}
	if len(out) == 0 {
		// struct point { ... } p; declares its struct too.
		if t := n.ChildByFieldName("type"); t != nil && strings.HasSuffix(p.typ(t), "_specifier") {
			return cTagged(strings.TrimSuffix(p.typ(t), "_specifier"))(p, t, top)
		}
	}
	return out
}

func cTypedef(p *parsed, n *sitter.Node, _ bool) []decl {
	var out []decl
	for _, d := range p.fieldChildren(n, "declarator") {
		if _, name, _ := cName(p, d); name != "" {
			out = append(out, decl{name: name, kind: "typedef"})
		}
	}
	return out
}

// cTagged reads a struct, union, enum or class with a body; one without
// (a use of the type, a forward declaration) declares nothing.
func cTagged(kind string) rule {
	return func(p *parsed, n *sitter.Node, _ bool) []decl {
		body := n.ChildByFieldName("body")
		if body == nil {
			return nil
		}
		name := p.field(n, "name")
		if name == "" {
			name = "(anonymous)"
		}
		d := decl{name: stripTemplateArgs(name), kind: kind}
		if kind == "class" || kind == "struct" {
			d.members, d.class = body, true
		}
		return []decl{d}
	}
}

// rustImpl names an impl block by what it implements (impl Foo, impl
// Display for Foo); its methods are qualified with the type alone.
func rustImpl(p *parsed, n *sitter.Node, _ bool) []decl {
	typ := stripTemplateArgs(p.field(n, "type"))
	name := "impl " + typ
	if tr := stripTemplateArgs(p.field(n, "trait")); tr != "" {
		name = "impl " + tr + " for " + typ
	}
	return []decl{{name: name, kind: "impl", scope: typ, members: n.ChildByFieldName("body"), class: true}}
}

// jsVariables lists the variables a declaration declares, at the top
// level: a variable holding a function or a class is listed as one.
func jsVariables(p *parsed, n *sitter.Node, top bool) []decl {
	if !top {
		return nil
	}
	kind := "var"
	if p.typ(n) == "lexical_declaration" {
		kind = p.field(n, "kind")
	}
	var out []decl
	for _, v := range p.namedChildren(n) {
		if p.typ(v) != "variable_declarator" {
			continue
		}
		name := v.ChildByFieldName("name")
		if name == nil || p.typ(name) != "identifier" {
			continue // a destructuring pattern
		}
		out = append(out, decl{name: p.text(name), kind: jsValueKind(p, v.ChildByFieldName("value"), kind)})
	}
	return out
}

func jsValueKind(p *parsed, v *sitter.Node, otherwise string) string {
	if v == nil {
		return otherwise
	}
	switch p.typ(v) {
	case "arrow_function", "function_expression", "function", "generator_function":
		return "function"
	case "class":
		return "class"
	}
	return otherwise
}

// jsAssignment lists a top-level assignment to a name or a property
// (module.exports.q = function ...), and a namespace the TypeScript
// grammar reads as a statement.
func jsAssignment(p *parsed, n *sitter.Node, top bool) []decl {
	c := n.NamedChild(0)
	if c == nil {
		return nil
	}
	if p.typ(c) == "internal_module" {
		return named("namespace", "body")(p, c, top)
	}
	if !top || p.typ(c) != "assignment_expression" {
		return nil
	}
	left := c.ChildByFieldName("left")
	if left == nil || (p.typ(left) != "identifier" && p.typ(left) != "member_expression") {
		return nil
	}
	scope, name := splitQualified(p.text(left))
	return []decl{{name: name, qualify: scope, kind: jsValueKind(p, c.ChildByFieldName("right"), "var")}}
}

// pythonAssignment lists a top-level assignment to names.
func pythonAssignment(p *parsed, n *sitter.Node, top bool) []decl {
	a := n.NamedChild(0)
	if !top || a == nil || p.typ(a) != "assignment" {
		return nil
	}
	left := a.ChildByFieldName("left")
	if left == nil {
		return nil
	}
	var out []decl
	switch p.typ(left) {
	case "identifier":
		out = append(out, decl{name: p.text(left), kind: "var"})
	case "pattern_list", "tuple_pattern":
		for _, id := range p.namedChildren(left) {
			if p.typ(id) == "identifier" {
				out = append(out, decl{name: p.text(id), kind: "var"})
			}
		}
	}
	return out
}

func rubyModule(kind string) rule {
	return func(p *parsed, n *sitter.Node, _ bool) []decl {
		scope, name := splitQualified(p.field(n, "name"))
		if name == "" {
			return nil
		}
		return []decl{{name: name, qualify: scope, kind: kind, members: p.childOf(n, "body_statement"), class: true}}
	}
}

// rubyConstant lists an assignment to a constant, at the top level or in
// a class or module.
func rubyConstant(p *parsed, n *sitter.Node, _ bool) []decl {
	left := n.ChildByFieldName("left")
	if left == nil || p.typ(left) != "constant" {
		return nil
	}
	return []decl{{name: p.text(left), kind: "const"}}
}

// luaVariables lists a top-level assignment (local or global): a name that
// takes a function is listed as one.
func luaVariables(p *parsed, n *sitter.Node, top bool) []decl {
	if !top {
		return nil
	}
	var out []decl
	kind := "var"
	if f := p.childOf(n, "function"); f != nil {
		kind = "function"
	}
	for _, v := range p.namedChildren(n) {
		if p.typ(v) != "variable_declarator" {
			continue
		}
		scope, name := splitQualified(p.text(v))
		if name == "" || strings.ContainsAny(name, "[]()") {
			continue
		}
		out = append(out, decl{name: name, qualify: scope, kind: kind})
	}
	return out
}

// cssAtRule names an at-rule by its first line up to its block: @media
// screen and (max-width: 10px).
func cssAtRule(kind string) rule {
	return func(p *parsed, n *sitter.Node, _ bool) []decl {
		head := p.text(n)
		if i := strings.IndexAny(head, "{;\n"); i >= 0 {
			head = strings.TrimSpace(head[:i])
		}
		return []decl{{name: head, kind: kind, members: p.childOf(n, "block")}}
	}
}

// htmlLandmarks are the elements an HTML outline lists even without an id:
// the document's parts, its scripts and styles.
var htmlLandmarks = setOf("html", "head", "body", "header", "nav", "main", "section", "article", "aside", "footer",
	"form", "table", "template", "dialog", "script", "style", "svg")

// htmlElement lists an element that has an id or is a landmark, as
// tag#id; the others are walked through for the elements inside them.
func htmlElement(p *parsed, n *sitter.Node, _ bool) []decl {
	tag := p.childOf(n, "start_tag")
	if tag == nil {
		return nil
	}
	name := strings.ToLower(p.text(p.childOf(tag, "tag_name")))
	id := ""
	for _, a := range p.namedChildren(tag) {
		if p.typ(a) != "attribute" || !strings.EqualFold(p.text(p.childOf(a, "attribute_name")), "id") {
			continue
		}
		id = strings.Trim(p.text(p.childOf(a, "quoted_attribute_value", "attribute_value")), `"'`)
	}
	if id == "" && !htmlLandmarks[name] {
		return nil
	}
	if id != "" {
		name += "#" + id
	}
	kind := "element"
	if p.typ(n) != "element" {
		kind = strings.TrimSuffix(p.typ(n), "_element")
	}
	return []decl{{name: name, kind: kind, members: n}}
}

func yamlKey(p *parsed, n *sitter.Node, _ bool) []decl {
	key := p.field(n, "key")
	if key == "" {
		return nil
	}
	return []decl{{name: strings.Trim(key, `"'`), kind: "key"}}
}

// tomlKey is the key of a pair or the name of a table: its first child.
func tomlKey(p *parsed, n *sitter.Node) string {
	if k := n.NamedChild(0); k != nil {
		return p.text(k)
	}
	return ""
}
