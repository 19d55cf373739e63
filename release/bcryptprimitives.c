/* ProcessPrng, the random-number source of Rust's standard library on
 * Windows 10 and later (bcryptprimitives.dll), for Wine versions without
 * that DLL (Debian 12's Wine 8.0): release/check.sh builds it into its
 * private Wine prefix. Not shipped: Windows has the real DLL. */
#include <windows.h>
#include <bcrypt.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    while (len > 0) {
        ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
        if (BCryptGenRandom(NULL, data, n, BCRYPT_USE_SYSTEM_PREFERRED_RNG) != 0)
            return FALSE;
        data += n;
        len -= n;
    }
    return TRUE;
}
