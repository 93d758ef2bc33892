package testenv

import (
	"sync"

	"golang.org/x/sys/windows"
)

// Wine reports whether the tests run under Wine rather than Windows: its
// ntdll.dll exports wine_get_version. A test that Wine cannot run as
// Windows would says why where it asks.
var Wine = sync.OnceValue(func() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
})
