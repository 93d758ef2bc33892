package endpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/windows"
)

// The SIDs besides the user's that a safe folder's DACL may admit: they
// can read every file of the machine anyway.
var (
	sidSystem         = "S-1-5-18"
	sidAdministrators = "S-1-5-32-544"
)

// ensureFolder creates dir, owned by the user, with a protected DACL that
// admits the user alone, when it is missing, then checks it. uid is not
// used: on Windows the user is the one the process's token names.
func ensureFolder(dir string, _ int) error {
	me, err := currentSID()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return fmt.Errorf("create the endpoint folder's parent %s: %w", filepath.Dir(dir), err)
	}
	sd, err := windows.SecurityDescriptorFromString("O:" + me + "D:P(A;OICI;FA;;;" + me + ")")
	if err != nil {
		return err
	}
	sa := &windows.SecurityAttributes{SecurityDescriptor: sd}
	sa.Length = uint32(unsafe.Sizeof(*sa))
	p, err := windows.UTF16PtrFromString(dir)
	if err != nil {
		return err
	}
	if err := windows.CreateDirectory(p, sa); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create the endpoint folder %s: %w", dir, err)
	}
	return checkFolder(dir, me)
}

// checkFolder refuses dir unless it is a folder, not a link or junction,
// owned by the user me, whose DACL admits no one else but SYSTEM and the
// Administrators: the rule of mode 0700 on Unix.
func checkFolder(dir, me string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	fix := fmt.Sprintf("remove it (rmdir /s %s) so hashline-ls can create it", dir)
	if fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0 {
		return &Error{CodeUnsafeFolder, fmt.Sprintf("the endpoint folder %s is a link or junction: %s", dir, fix)}
	}
	if !fi.IsDir() {
		return &Error{CodeUnsafeFolder, fmt.Sprintf("the endpoint folder %s is not a directory: %s", dir, fix)}
	}
	owner, others, err := folderSecurity(dir)
	if err != nil {
		return &Error{CodeUnsafeFolder, fmt.Sprintf("the security of the endpoint folder %s cannot be read (%v): editors cannot be reached here; run hashline-ls mcp --no-editor", dir, err)}
	}
	if owner != me {
		return &Error{CodeUnsafeFolder, fmt.Sprintf("the endpoint folder %s belongs to %s, not to you (%s): %s", dir, owner, me, fix)}
	}
	if len(others) > 0 {
		return &Error{CodeUnsafeFolder, fmt.Sprintf("the endpoint folder %s admits %v besides you: %s", dir, others, fix)}
	}
	return nil
}

// folderSecurity reads the owner of dir, opened without following a
// link, and the other SIDs its DACL allows anything.
func folderSecurity(dir string) (owner string, others []string, err error) {
	p, err := windows.UTF16PtrFromString(dir)
	if err != nil {
		return "", nil, err
	}
	h, err := windows.CreateFile(p, windows.READ_CONTROL, windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_EXISTING, windows.FILE_FLAG_BACKUP_SEMANTICS|windows.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		return "", nil, err
	}
	defer windows.CloseHandle(h)
	sd, err := windows.GetSecurityInfo(h, windows.SE_FILE_OBJECT, windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return "", nil, err
	}
	o, _, err := sd.Owner()
	if err != nil {
		return "", nil, err
	}
	dacl, _, err := sd.DACL()
	if err != nil {
		return "", nil, err
	}
	if dacl == nil {
		return o.String(), []string{"everyone (no DACL)"}, nil
	}
	for i := range uint32(dacl.AceCount) {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			return "", nil, err
		}
		if ace.Header.AceType != windows.ACCESS_ALLOWED_ACE_TYPE {
			continue
		}
		sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart)).String()
		if sid != o.String() && sid != sidSystem && sid != sidAdministrators {
			others = append(others, sid)
		}
	}
	return o.String(), others, nil
}

// currentSID is the SID of the user the process runs as.
func currentSID() (string, error) {
	u, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return "", fmt.Errorf("read this process's user: %w", err)
	}
	return u.User.Sid.String(), nil
}
