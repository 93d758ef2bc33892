package main

import (
	"bytes"
	"debug/macho"
	"fmt"
	"slices"
	"strings"
)

// machoLibraries are the only libraries a macOS hashline-ls may load: the C
// library, the resolver Go's net package calls, and the two frameworks its
// certificate verification uses. Every Mac has them.
var machoLibraries = []string{
	"/usr/lib/libSystem.B.dylib",
	"/usr/lib/libresolv.9.dylib",
	"/System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation",
	"/System/Library/Frameworks/Security.framework/Versions/A/Security",
}

// machoMinimum is the oldest macOS the binary may ask for (Go's own
// minimum), as LC_BUILD_VERSION encodes it: major<<16 | minor<<8 | patch.
const machoMinimum = 12 << 16

// Load commands that debug/macho leaves as raw bytes.
const (
	lcReqDyld        = 0x80000000
	lcLoadWeakDylib  = 0x18 | lcReqDyld
	lcReexportDylib  = 0x1f | lcReqDyld
	lcLazyLoadDylib  = 0x20
	lcLoadUpwDylib   = 0x23 | lcReqDyld
	lcCodeSignature  = 0x1d
	lcBuildVersion   = 0x32
	platformMacOS    = 1
	nTypeMask        = 0x0e
	nTypeSect        = 0x0e
	dynamicLookupOrd = 0xff
)

func checkMachO(data []byte, goarch string, grammars []string) (*Report, error) {
	f, err := macho.NewFile(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("not a thin 64-bit Mach-O: %w", err)
	}
	r := &Report{}
	wantCPU := map[string]macho.Cpu{"arm64": macho.CpuArm64, "amd64": macho.CpuAmd64}[goarch]
	if f.Cpu == wantCPU && f.Type == macho.TypeExec && f.Magic == macho.Magic64 {
		r.ok("machine: 64-bit Mach-O executable for %v", f.Cpu)
	} else {
		r.fail("machine: %v %v (magic %#x), want an executable for %v", f.Cpu, f.Type, f.Magic, wantCPU)
	}
	if v, err := machoBuildVersion(f); err != nil {
		r.fail("minimum macOS: %v", err)
	} else {
		r.ok("minimum macOS: %s", v)
	}
	libs := machoDylibs(f)
	if extra := missing(libs, func(l string) bool { return slices.Contains(machoLibraries, l) }); len(extra) > 0 || !slices.Contains(libs, machoLibraries[0]) {
		r.fail("libraries: loads %s; only %s are allowed, libSystem among them", strings.Join(libs, ", "), strings.Join(machoLibraries, ", "))
	} else {
		r.ok("libraries: %s", strings.Join(libs, ", "))
	}
	if n, err := machoImports(f, libs); err != nil {
		r.fail("imports: %v", err)
	} else {
		r.ok("imports: all %d undefined symbols bound, two-level, to those libraries", n)
	}
	grammarsCheck(r, grammars, func(name string) bool {
		return slices.ContainsFunc(f.Symtab.Syms, func(s macho.Symbol) bool {
			return s.Name == "_"+name && s.Type&nTypeMask == nTypeSect
		})
	})
	machoSignatureCheck(r, f, data, goarch)
	return r, nil
}

// machoBuildVersion checks LC_BUILD_VERSION: macOS, and the minimum
// version Go supports, not the newer one a linker defaults to.
func machoBuildVersion(f *macho.File) (string, error) {
	for _, l := range f.Loads {
		raw := l.Raw()
		if len(raw) < 24 || f.ByteOrder.Uint32(raw) != lcBuildVersion {
			continue
		}
		platform, minos, sdk := f.ByteOrder.Uint32(raw[8:]), f.ByteOrder.Uint32(raw[12:]), f.ByteOrder.Uint32(raw[16:])
		if platform != platformMacOS {
			return "", fmt.Errorf("LC_BUILD_VERSION names platform %d, not macOS (1)", platform)
		}
		if minos != machoMinimum {
			return "", fmt.Errorf("LC_BUILD_VERSION asks for macOS %s, want %s", machoVersion(minos), machoVersion(machoMinimum))
		}
		return fmt.Sprintf("%s (LC_BUILD_VERSION; SDK %s)", machoVersion(minos), machoVersion(sdk)), nil
	}
	return "", fmt.Errorf("no LC_BUILD_VERSION load command")
}

// machoVersion spells a packed version as macOS does, e.g. 12.0.
func machoVersion(v uint32) string {
	s := fmt.Sprintf("%d.%d", v>>16, v>>8&0xff)
	if v&0xff != 0 {
		s += fmt.Sprintf(".%d", v&0xff)
	}
	return s
}

// machoDylibs lists the libraries the binary loads, in the order of their
// load commands: library ordinal N names the Nth.
func machoDylibs(f *macho.File) []string {
	var libs []string
	for _, l := range f.Loads {
		raw := l.Raw()
		if len(raw) < 24 {
			continue
		}
		switch f.ByteOrder.Uint32(raw) {
		case uint32(macho.LoadCmdDylib), lcLoadWeakDylib, lcReexportDylib, lcLazyLoadDylib, lcLoadUpwDylib:
			if off := f.ByteOrder.Uint32(raw[8:]); int(off) < len(raw) {
				libs = append(libs, cstring(raw[off:]))
			}
		}
	}
	return libs
}

// machoImports checks that every undefined symbol is bound, two-level, to
// one of the libraries loaded: none is left to a flat lookup at run time,
// which could find nothing on a Mac and stop the program when called.
func machoImports(f *macho.File, libs []string) (int, error) {
	if f.Flags&macho.FlagTwoLevel == 0 {
		return 0, fmt.Errorf("not linked with two-level names, so imports name no library")
	}
	if f.Dysymtab == nil || f.Symtab == nil {
		return 0, fmt.Errorf("no symbol tables")
	}
	d := f.Dysymtab
	if int(d.Iundefsym+d.Nundefsym) > len(f.Symtab.Syms) {
		return 0, fmt.Errorf("undefined symbols %d..%d are beyond the %d symbols", d.Iundefsym, d.Iundefsym+d.Nundefsym, len(f.Symtab.Syms))
	}
	var unbound []string
	for _, s := range f.Symtab.Syms[d.Iundefsym : d.Iundefsym+d.Nundefsym] {
		ord := int(s.Desc >> 8)
		if ord == 0 || ord == dynamicLookupOrd || ord > len(libs) {
			unbound = append(unbound, fmt.Sprintf("%s (ordinal %d)", s.Name, ord))
		}
	}
	if len(unbound) > 0 {
		return 0, fmt.Errorf("%d of %d undefined symbols are bound to no loaded library: %s", len(unbound), d.Nundefsym, strings.Join(unbound, ", "))
	}
	if d.Nundefsym == 0 {
		return 0, fmt.Errorf("no undefined symbols at all, so nothing comes from libSystem: not a Go program for macOS")
	}
	return int(d.Nundefsym), nil
}

// machoSignatureCheck checks the embedded code signature, which arm64
// needs: macOS kills an arm64 process whose pages do not match it.
func machoSignatureCheck(r *Report, f *macho.File, data []byte, goarch string) {
	for _, l := range f.Loads {
		raw := l.Raw()
		if len(raw) < 16 || f.ByteOrder.Uint32(raw) != lcCodeSignature {
			continue
		}
		off, size := f.ByteOrder.Uint32(raw[8:]), f.ByteOrder.Uint32(raw[12:])
		sig, err := VerifySignature(data, off, size)
		if err != nil {
			r.fail("signature: %v", err)
			return
		}
		r.ok("signature: %s", sig)
		return
	}
	if goarch == "arm64" {
		r.fail("signature: no LC_CODE_SIGNATURE: macOS refuses to run an unsigned arm64 binary")
		return
	}
	r.ok("signature: none, which x86_64 does not need")
}
