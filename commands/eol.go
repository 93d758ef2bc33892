package commands

import "strings"

// newFileText is the text of a file the server creates: content, its
// lines ending the editor's way for new files when the editor says it
// wants CRLF and content ends them in plain LF. Otherwise, and on the disk
// with no editor, every system included, the content's own endings.
func (s *Server) newFileText(content string) string {
	if s.NewFileEOL == nil || strings.Contains(content, "\r") || s.NewFileEOL() != "\r\n" {
		return content
	}
	return strings.ReplaceAll(content, "\n", "\r\n")
}
