// A stand-in for Windows' bcryptprimitives.dll, which Wine 8 lacks: the Go
// runtime (1.22 and later) calls its ProcessPrng at start and stops when
// it is missing. Here ProcessPrng fills the buffer from RtlGenRandom
// (advapi32's SystemFunction036), the system's random source.
#include <windows.h>
#include <ntsecapi.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!RtlGenRandom(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
