package blocks

import "strings"

// What a text may declare, read from its bytes before any parse: a search
// for the declarations of a name parses only the files that may declare
// it, and in most of the files that name it a name is only used. A rule
// answers false only where the language's syntax proves that none of the
// names the outline would list is accepted; otherwise it answers true.

// MayDeclare reports whether text, a normalized text of the file at path,
// may hold a declaration the outline lists (a group aside) whose name
// accept accepts. It is false only when that is certain; a language with
// no rule of its own may always declare one.
func (r *Resolver) MayDeclare(path, text string, accept func(name string) bool) bool {
	l := lookup(path)
	if l == nil || l.mayDeclare == nil {
		return true
	}
	return l.mayDeclare(text, accept)
}

// goMayDeclare is Go's rule. Every name a Go outline lists is one
// identifier token: a function's, a method's, a type's, a constant's or a
// variable's. What comes before a declared name on its line is nothing
// (a group's spec), the keyword func, type, var or const, the receiver's
// ')', or the '(', ',' or ';' of a group or a list of names, with only
// space or a comment between. A name after anything else is a use: after
// a '.' a selector, after '=' or another name a value or a type. A
// declared name is also a whole run of letters, digits and underscores:
// a keyword, a number or another name right against it would be read into
// one token with it. So the text may declare a name that accept accepts
// only if some such run in such a place is accepted, outside comments and
// string and rune literals, where nothing is declared. A run holding a
// byte outside ASCII is taken as accepted whatever it holds: which of
// those characters the grammar reads as letters is the grammar's
// business, and such a run is not surely one token.
func goMayDeclare(text string, accept func(name string) bool) bool {
	tried := map[string]bool{} // runs accept refused
	for i := 0; i < len(text); {
		if end, ok := goSkip(text, i); !ok {
			return true
		} else if end > i {
			i = end
			continue
		}
		if !isRunByte(text[i]) {
			i++
			continue
		}
		start, ascii := i, true
		for i < len(text) && isRunByte(text[i]) {
			ascii = ascii && text[i] < 0x80
			i++
		}
		if !mayDeclareAt(text, start) {
			continue
		}
		if !ascii {
			return true
		}
		run := text[start:i]
		if run[0] >= '0' && run[0] <= '9' {
			continue // a number
		}
		if tried[run] {
			continue
		}
		if accept(run) {
			return true
		}
		tried[run] = true
	}
	return false
}

// isRunByte is a byte of an identifier-like run: an ASCII letter, digit or
// underscore, or any byte of a character outside ASCII.
func isRunByte(b byte) bool { return isWordByte(b) || b >= 0x80 }

// mayDeclareAt reports whether a Go name may be declared at offset i:
// what stands before it on its line is nothing, a keyword that declares,
// or a byte a declared name may follow; a comment there ends in a '/',
// which is let through.
func mayDeclareAt(text string, i int) bool {
	j := i
	for j > 0 && (text[j-1] == ' ' || text[j-1] == '\t') {
		j--
	}
	if j == 0 {
		return true
	}
	switch b := text[j-1]; {
	case b == '\n', b == '(', b == ')', b == ',', b == ';', b == '/', b >= 0x80:
		return true
	case isWordByte(b):
		k := j - 1
		for k > 0 && isRunByte(text[k-1]) {
			k--
		}
		switch text[k:j] {
		case "func", "type", "var", "const":
			return true
		}
	}
	return false
}

// goSkip is the end of the comment or the string or rune literal that
// opens at offset i, read as Go's lexer reads them; i itself when none
// opens there. ok is false when one opens and is never closed: the text
// does not parse, and only the parser says so.
func goSkip(text string, i int) (end int, ok bool) {
	rest := text[i:]
	switch {
	case rest[0] != '/' && rest[0] != '`' && rest[0] != '"' && rest[0] != '\'':
		return i, true
	case strings.HasPrefix(rest, "//"):
		if j := strings.IndexByte(rest, '\n'); j >= 0 {
			return i + j, true
		}
		return len(text), true
	case strings.HasPrefix(rest, "/*"):
		if j := strings.Index(rest[2:], "*/"); j >= 0 {
			return i + 2 + j + 2, true
		}
	case rest[0] == '`':
		if j := strings.IndexByte(rest[1:], '`'); j >= 0 {
			return i + 1 + j + 1, true
		}
	case rest[0] == '"' || rest[0] == '\'':
		// An interpreted string or a rune: a backslash escapes the byte
		// after it, and neither holds a line end.
		for j := 1; j < len(rest) && rest[j] != '\n'; j++ {
			switch rest[j] {
			case '\\':
				j++
			case rest[0]:
				return i + j + 1, true
			}
		}
	default:
		return i, true // a division
	}
	return 0, false
}
