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
// variable's. None of them ever follows a '.' on its line: what comes
// before a declared name is a keyword, the receiver's ')', or a '(', ',',
// ';' or line end of a group or a list of names, with only space or a
// comment (which ends in "*/") between. A name right after a '.' is a
// selector or a qualified type, a use. A declared name is also a whole
// run of letters, digits and underscores: a keyword, a number or another
// name right against it would be read into one token with it. So the text
// may declare a name that accept accepts only if some such run not right
// after a '.' is accepted, outside comments and string and rune literals,
// where nothing is declared. A run holding a byte outside ASCII is taken as
// accepted whatever it holds: which of those characters the grammar reads
// as letters is the grammar's business, and such a run is not surely one
// token.
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
		if afterDot(text, start) {
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

// afterDot reports whether the last byte before offset i on its line that
// is neither a space nor a tab is a '.'.
func afterDot(text string, i int) bool {
	j := strings.LastIndexFunc(text[:i], func(r rune) bool { return r != ' ' && r != '\t' })
	return j >= 0 && text[j] == '.'
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
