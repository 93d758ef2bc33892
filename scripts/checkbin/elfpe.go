package main

import (
	"bytes"
	"debug/elf"
	"debug/pe"
	"fmt"
	"slices"
	"strings"
)

// checkELF checks a Linux build: a static-pie executable of its machine,
// which loads nothing (no interpreter, no shared library), so it runs on
// any Linux of that machine, glibc or musl.
func checkELF(data []byte, goarch string, grammars []string) (*Report, error) {
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("not an ELF file: %w", err)
	}
	r := &Report{}
	want := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[goarch]
	if f.Machine == want && f.Class == elf.ELFCLASS64 && f.Type == elf.ET_DYN {
		r.ok("machine: 64-bit ELF position-independent executable for %v", f.Machine)
	} else {
		r.fail("machine: %v %v %v, want a 64-bit %v executable", f.Class, f.Type, f.Machine, want)
	}
	libs, _ := f.ImportedLibraries()
	interp := slices.ContainsFunc(f.Progs, func(p *elf.Prog) bool { return p.Type == elf.PT_INTERP })
	if len(libs) == 0 && !interp {
		r.ok("libraries: none, and no interpreter (static-pie)")
	} else {
		r.fail("libraries: loads %v (interpreter: %v), want a static-pie that loads nothing", libs, interp)
	}
	// Without a symbol table (-s) neither imports nor grammars can be seen.
	syms, err := f.Symbols()
	var undefined []string
	for _, s := range syms {
		if s.Section == elf.SHN_UNDEF && s.Name != "" && elf.ST_BIND(s.Info) != elf.STB_WEAK {
			undefined = append(undefined, s.Name)
		}
	}
	switch {
	case err != nil:
		r.fail("imports: %v (build with -w alone, not -s)", err)
	case len(undefined) == 0:
		r.ok("imports: no undefined symbol")
	default:
		r.fail("imports: %d undefined symbols in a static binary: %s", len(undefined), strings.Join(undefined, ", "))
	}
	grammarsCheck(r, grammars, func(name string) bool {
		return slices.ContainsFunc(syms, func(s elf.Symbol) bool {
			return s.Name == name && s.Section != elf.SHN_UNDEF && elf.ST_TYPE(s.Info) == elf.STT_FUNC
		})
	})
	return r, nil
}

// peLibraries are the only DLLs a Windows hashline-ls may import: the C
// runtime and the kernel, both part of every Windows. (Go's runtime loads
// the other system DLLs it uses itself, by name, at run time.)
var peLibraries = []string{"kernel32.dll", "msvcrt.dll"}

// checkPE checks a Windows build: a PE32+ console program for x86-64 whose
// imports all come from peLibraries, so it needs no DLL of MinGW's.
func checkPE(data []byte, goarch string, grammars []string) (*Report, error) {
	f, err := pe.NewFile(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("not a PE file: %w", err)
	}
	r := &Report{}
	opt, plus := f.OptionalHeader.(*pe.OptionalHeader64)
	if goarch == "amd64" && f.Machine == pe.IMAGE_FILE_MACHINE_AMD64 && plus && f.Characteristics&pe.IMAGE_FILE_EXECUTABLE_IMAGE != 0 && opt.Subsystem == pe.IMAGE_SUBSYSTEM_WINDOWS_CUI {
		r.ok("machine: PE32+ console executable for x86-64")
	} else {
		r.fail("machine: %#x (PE32+: %v), want a PE32+ console executable for x86-64", f.Machine, plus)
	}
	// Each import is "symbol:DLL" (debug/pe's ImportedLibraries lists
	// nothing for PE files).
	imports, err := f.ImportedSymbols()
	if err != nil {
		return nil, err
	}
	var libs []string
	for _, s := range imports {
		if _, dll, _ := strings.Cut(s, ":"); !slices.Contains(libs, dll) {
			libs = append(libs, dll)
		}
	}
	allowed := func(dll string) bool { return slices.Contains(peLibraries, strings.ToLower(dll)) }
	if len(libs) > 0 && len(missing(libs, allowed)) == 0 {
		r.ok("libraries: %s", strings.Join(libs, ", "))
	} else {
		r.fail("libraries: imports %s; only %s are allowed", strings.Join(libs, ", "), strings.Join(peLibraries, ", "))
	}
	var stray []string
	for _, s := range imports {
		if _, dll, _ := strings.Cut(s, ":"); !allowed(dll) {
			stray = append(stray, s)
		}
	}
	if len(imports) > 0 && len(stray) == 0 {
		r.ok("imports: all %d from %s", len(imports), strings.Join(libs, ", "))
	} else {
		r.fail("imports: %d of %d from other DLLs: %s", len(stray), len(imports), strings.Join(stray, ", "))
	}
	grammarsCheck(r, grammars, func(name string) bool {
		return slices.ContainsFunc(f.Symbols, func(s *pe.Symbol) bool { return s.Name == name && s.SectionNumber > 0 })
	})
	return r, nil
}
