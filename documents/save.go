package documents

// OnDisk reports whether disk, the bytes of a file, holds text, a buffer's
// text: exactly, or with the BOM an editor keeps outside its buffer.
func OnDisk(text, disk string) bool {
	return text == disk || withBOM(text, disk) == disk
}
