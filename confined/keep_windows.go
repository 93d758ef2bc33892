package confined

import (
	"errors"
	"io/fs"
	"unsafe"

	"golang.org/x/sys/windows"
)

// keptAttributes are the attributes a replacement keeps; read-only is the
// mode's, which Stage sets.
const keptAttributes = windows.FILE_ATTRIBUTE_HIDDEN | windows.FILE_ATTRIBUTE_SYSTEM |
	windows.FILE_ATTRIBUTE_ARCHIVE | windows.FILE_ATTRIBUTE_NOT_CONTENT_INDEXED

// fileBasicInfo is FILE_BASIC_INFO: times in 100 ns since 1601, zero for
// one a set leaves as it is.
type fileBasicInfo struct {
	CreationTime, LastAccessTime, LastWriteTime, ChangeTime int64
	FileAttributes                                          uint32
	_                                                       uint32
}

// keep gives the staged file tmp what the file name in the folder has
// beyond its bytes, as ReplaceFileW keeps it: the DACL, and whether it is
// protected from inheritance; the owner and group; the attributes hidden,
// system, archive and not-content-indexed; the creation time. ReplaceFileW
// itself takes both files by path, so a folder on that path swapped for a
// junction between the check and the call would carry it outside the
// root; here both are reached through the folder's handle. A file with
// alternate data streams (a download's Zone.Identifier, say), which the
// new file would lose, or whose owner this process may not give (only an
// administrator can give a file away), is ErrOwner: a write in place keeps
// them. When name is gone, the new file takes its folder's defaults.
func (d *Dir) keep(name, tmp string) error {
	old, err := ntOpen(d.handle(), name, windows.READ_CONTROL|windows.FILE_READ_ATTRIBUTES)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer windows.CloseHandle(old)
	streams, err := hasStreams(old)
	if err != nil {
		return err
	}
	if streams {
		return ErrOwner
	}
	sd, err := windows.GetSecurityInfo(old, windows.SE_FILE_OBJECT,
		windows.OWNER_SECURITY_INFORMATION|windows.GROUP_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return err
	}
	var basic fileBasicInfo
	if err := windows.GetFileInformationByHandleEx(old, windows.FileBasicInfo, (*byte)(unsafe.Pointer(&basic)), uint32(unsafe.Sizeof(basic))); err != nil {
		return err
	}
	staged, err := ntOpen(d.handle(), tmp, windows.READ_CONTROL|windows.WRITE_DAC|windows.WRITE_OWNER|windows.FILE_WRITE_ATTRIBUTES)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(staged)
	if err := setSecurity(staged, sd); err != nil {
		return err
	}
	set := fileBasicInfo{CreationTime: basic.CreationTime, FileAttributes: basic.FileAttributes & keptAttributes}
	if set.FileAttributes == 0 {
		set.FileAttributes = windows.FILE_ATTRIBUTE_NORMAL
	}
	return windows.SetFileInformationByHandle(staged, windows.FileBasicInfo, (*byte)(unsafe.Pointer(&set)), uint32(unsafe.Sizeof(set)))
}

// setSecurity gives h the DACL, owner and group of sd.
func setSecurity(h windows.Handle, sd *windows.SECURITY_DESCRIPTOR) error {
	dacl, _, err := sd.DACL()
	if err != nil {
		return err
	}
	control, _, err := sd.Control()
	if err != nil {
		return err
	}
	info := windows.SECURITY_INFORMATION(windows.DACL_SECURITY_INFORMATION)
	if control&windows.SE_DACL_PROTECTED != 0 {
		info |= windows.PROTECTED_DACL_SECURITY_INFORMATION
	}
	if err := windows.SetSecurityInfo(h, windows.SE_FILE_OBJECT, info, nil, nil, dacl, nil); err != nil {
		return err
	}
	owner, _, err := sd.Owner()
	if err != nil {
		return err
	}
	now, err := windows.GetSecurityInfo(h, windows.SE_FILE_OBJECT, windows.OWNER_SECURITY_INFORMATION)
	if err != nil {
		return err
	}
	if mine, _, err := now.Owner(); err != nil || !owner.Equals(mine) {
		err := windows.SetSecurityInfo(h, windows.SE_FILE_OBJECT, windows.OWNER_SECURITY_INFORMATION, owner, nil, nil, nil)
		if errors.Is(err, windows.ERROR_INVALID_OWNER) || errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_PRIVILEGE_NOT_HELD) {
			return ErrOwner
		}
		if err != nil {
			return err
		}
	}
	// Windows grants nothing through a file's group: it is kept where it
	// can be, and a refusal is no reason to write in place.
	if group, _, err := sd.Group(); err == nil && group != nil {
		_ = windows.SetSecurityInfo(h, windows.SE_FILE_OBJECT, windows.GROUP_SECURITY_INFORMATION, nil, group, nil, nil)
	}
	return nil
}

// hasStreams reports whether the file h has alternate data streams.
func hasStreams(h windows.Handle) (bool, error) {
	buf := make([]uint64, 512) // 4 KiB, aligned for FILE_STREAM_INFO
	b := (*byte)(unsafe.Pointer(&buf[0]))
	err := windows.GetFileInformationByHandleEx(h, windows.FileStreamInfo, b, uint32(len(buf)*8))
	switch {
	case errors.Is(err, windows.ERROR_HANDLE_EOF):
		return false, nil // no stream at all
	case errors.Is(err, windows.ERROR_INVALID_FUNCTION), errors.Is(err, windows.ERROR_INVALID_PARAMETER), errors.Is(err, windows.ERROR_NOT_SUPPORTED):
		return false, nil // a volume without streams (FAT; Wine reports none)
	case errors.Is(err, windows.ERROR_MORE_DATA):
		return true, nil // more than 4 KiB of stream names
	case err != nil:
		return false, err
	}
	// FILE_STREAM_INFO: NextEntryOffset, StreamNameLength (bytes), two
	// sizes, then the name; the unnamed stream is "::$DATA".
	for off := uintptr(0); ; {
		entry := unsafe.Add(unsafe.Pointer(b), off)
		next, size := *(*uint32)(entry), *(*uint32)(unsafe.Add(entry, 4))
		name := unsafe.Slice((*uint16)(unsafe.Add(entry, 24)), size/2)
		if windows.UTF16ToString(name) != "::$DATA" {
			return true, nil
		}
		if next == 0 {
			return false, nil
		}
		off += uintptr(next)
	}
}

// ntOpen opens the existing file name in the folder dir itself, never
// what a link there names, with access, sharing it as Unix does.
func ntOpen(dir windows.Handle, name string, access uint32) (windows.Handle, error) {
	objName, err := windows.NewNTUnicodeString(name)
	if err != nil {
		return 0, err
	}
	oa := &windows.OBJECT_ATTRIBUTES{RootDirectory: dir, ObjectName: objName, Attributes: windows.OBJ_CASE_INSENSITIVE}
	oa.Length = uint32(unsafe.Sizeof(*oa))
	var h windows.Handle
	err = windows.NtCreateFile(&h, access|windows.SYNCHRONIZE, oa, &windows.IO_STATUS_BLOCK{}, nil, 0,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, windows.FILE_OPEN,
		windows.FILE_OPEN_REPARSE_POINT|windows.FILE_SYNCHRONOUS_IO_NONALERT|windows.FILE_NON_DIRECTORY_FILE, 0, 0)
	return h, ntErr(err)
}

// renameNoReplace renames from to to inside the folder, failing when to
// exists.
func (d *Dir) renameNoReplace(from, to string) error {
	h, err := ntOpen(d.handle(), from, windows.DELETE)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(h)
	name, err := windows.UTF16FromString(to)
	if err != nil {
		return err
	}
	// FILE_RENAME_INFORMATION with ReplaceIfExists false, the new name
	// relative to the folder's handle.
	var info struct {
		Flags          uint32
		_              uint32
		RootDirectory  windows.Handle
		FileNameLength uint32
		FileName       [windows.MAX_PATH]uint16
	}
	if len(name) > len(info.FileName) {
		return windows.ERROR_FILENAME_EXCED_RANGE
	}
	info.RootDirectory = d.handle()
	info.FileNameLength = uint32(2 * (len(name) - 1))
	copy(info.FileName[:], name)
	return ntErr(windows.NtSetInformationFile(h, &windows.IO_STATUS_BLOCK{}, (*byte)(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), windows.FileRenameInformation))
}

// ntErr turns an NTSTATUS into the Win32 error the rest of Go knows.
func ntErr(err error) error {
	var st windows.NTStatus
	if errors.As(err, &st) {
		return st.Errno()
	}
	return err
}
