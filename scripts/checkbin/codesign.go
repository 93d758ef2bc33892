package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
)

// The parts of Apple's code signature format (cs_blobs.h) an ad-hoc
// signature uses. Signature blobs are big-endian whatever the binary's
// byte order.
const (
	csMagicEmbeddedSignature = 0xfade0cc0
	csMagicCodeDirectory     = 0xfade0c02
	csSlotCodeDirectory      = 0
	csSlotCMS                = 0x10000
	csMagicBlobWrapper       = 0xfade0b01
	csFlagAdhoc              = 0x2
	csFlagLinkerSigned       = 0x20000
	csHashSHA256             = 2
	csCodeDirectoryMinimum   = 44 // bytes up to and including spare2
)

var be = binary.BigEndian

// VerifySignature checks the embedded signature at data[off:off+size]
// as macOS would for an ad-hoc signed program: a code directory of SHA-256
// hashes covering every byte before the signature, page by page, each hash
// recomputed here, and the special slots matching the blobs they name. It
// describes the signature when it holds.
func VerifySignature(data []byte, off, size uint32) (string, error) {
	if uint64(off)+uint64(size) > uint64(len(data)) || size < 12 {
		return "", fmt.Errorf("LC_CODE_SIGNATURE names bytes %d..%d of a %d-byte file", off, uint64(off)+uint64(size), len(data))
	}
	sb := data[off : off+size]
	if be.Uint32(sb) != csMagicEmbeddedSignature {
		return "", fmt.Errorf("signature magic %#x, want %#x", be.Uint32(sb), csMagicEmbeddedSignature)
	}
	blobs, err := signatureBlobs(sb)
	if err != nil {
		return "", err
	}
	cd, ok := blobs[csSlotCodeDirectory]
	if !ok {
		return "", fmt.Errorf("the signature holds no code directory")
	}
	if cms, ok := blobs[csSlotCMS]; ok && !(be.Uint32(cms) == csMagicBlobWrapper && len(cms) == 8) {
		return "", fmt.Errorf("the signature carries a CMS signature: not ad-hoc")
	}
	if len(cd) < csCodeDirectoryMinimum || be.Uint32(cd) != csMagicCodeDirectory {
		return "", fmt.Errorf("the code directory's magic is %#x, want %#x", be.Uint32(cd), csMagicCodeDirectory)
	}
	flags := be.Uint32(cd[12:])
	hashOffset, identOffset := be.Uint32(cd[16:]), be.Uint32(cd[20:])
	nSpecial, nCode, codeLimit := be.Uint32(cd[24:]), be.Uint32(cd[28:]), be.Uint32(cd[32:])
	hashSize, hashType, pageShift := cd[36], cd[37], cd[39]
	if flags&csFlagAdhoc == 0 {
		return "", fmt.Errorf("code directory flags %#x lack CS_ADHOC", flags)
	}
	if hashType != csHashSHA256 || hashSize != sha256.Size {
		return "", fmt.Errorf("hash type %d of %d bytes, want SHA-256 (%d) of %d", hashType, hashSize, csHashSHA256, sha256.Size)
	}
	if codeLimit != off {
		return "", fmt.Errorf("the code directory covers %d bytes, but the signature starts at %d", codeLimit, off)
	}
	if pageShift == 0 || pageShift > 16 {
		return "", fmt.Errorf("page size 2^%d", pageShift)
	}
	page := uint32(1) << pageShift
	if want := (codeLimit + page - 1) / page; nCode != want {
		return "", fmt.Errorf("%d code slots for %d bytes in pages of %d, want %d", nCode, codeLimit, page, want)
	}
	if uint64(hashOffset)+uint64(nCode)*sha256.Size > uint64(len(cd)) || uint64(nSpecial)*sha256.Size > uint64(hashOffset) {
		return "", fmt.Errorf("hash slots lie outside the %d-byte code directory", len(cd))
	}
	for i := uint32(0); i < nCode; i++ {
		end := min((i+1)*page, codeLimit)
		got := sha256.Sum256(data[i*page : end])
		if want := cd[hashOffset+i*sha256.Size:][:sha256.Size]; !bytes.Equal(got[:], want) {
			return "", fmt.Errorf("page %d (bytes %d..%d) hashes to %x, the signature says %x", i, i*page, end, got, want)
		}
	}
	for slot := uint32(1); slot <= nSpecial; slot++ {
		want := cd[hashOffset-slot*sha256.Size:][:sha256.Size]
		blob, ok := blobs[slot]
		got := make([]byte, sha256.Size)
		if ok {
			sum := sha256.Sum256(blob)
			got = sum[:]
		}
		if !bytes.Equal(got, want) {
			return "", fmt.Errorf("special slot %d does not match its blob", slot)
		}
	}
	kind := "ad-hoc"
	if flags&csFlagLinkerSigned != 0 {
		kind += ", linker-signed"
	}
	ident := ""
	if identOffset < uint32(len(cd)) {
		ident = cstring(cd[identOffset:])
	}
	return fmt.Sprintf("%s, identifier %q, SHA-256 of %d pages of %d bytes, all %d recomputed hashes match", kind, ident, nCode, page, nCode), nil
}

// signatureBlobs indexes the blobs of an embedded signature by slot type.
func signatureBlobs(sb []byte) (map[uint32][]byte, error) {
	length, count := be.Uint32(sb[4:]), be.Uint32(sb[8:])
	if int(length) > len(sb) || 12+uint64(count)*8 > uint64(length) {
		return nil, fmt.Errorf("signature of %d bytes with %d blobs overruns its %d bytes", length, count, len(sb))
	}
	sb = sb[:length]
	blobs := map[uint32][]byte{}
	for i := uint32(0); i < count; i++ {
		typ, at := be.Uint32(sb[12+i*8:]), be.Uint32(sb[16+i*8:])
		if uint64(at)+8 > uint64(len(sb)) {
			return nil, fmt.Errorf("blob %d starts past the signature's end", i)
		}
		n := be.Uint32(sb[at+4:])
		if n < 8 || uint64(at)+uint64(n) > uint64(len(sb)) {
			return nil, fmt.Errorf("blob %d (slot %#x) of %d bytes overruns the signature", i, typ, n)
		}
		blobs[typ] = sb[at : at+n]
	}
	return blobs, nil
}
