/*
 * copy.c - copies with non-temporal stores, for large buffers nobody reads again soon.
 *
 * Layer: base.  See copy.h.
 *
 * On x86-64 the destination is first brought to a 32-byte boundary with memcpy, then written
 * 128 bytes at a time with streaming stores (AVX2 when the CPU has it, SSE2, which every
 * x86-64 has, otherwise); the tail goes through memcpy, and an sfence orders the streaming
 * stores before whatever the caller does next (a flag a peer waits for, say).
 */
#include "config.h"

#include "base/copy.h"

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* Not derived from the cache size: under KVM, sysconf(_SC_LEVEL3_CACHE_SIZE) gave 320 MiB on
 * a guest whose L3 (lscpu, CPUID) is 32 MiB. */
enum { COPY_STREAM_MIN = 4 << 20 };

size_t comm_copy_stream_min(void)
{
    return COPY_STREAM_MIN;
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) static void copy_stream_avx2(char *dst, const char *src,
                                                             size_t blocks)
{
    for (size_t i = 0; i < blocks; i++, dst += 128, src += 128) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)src);
        __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(src + 32));
        __m256i c = _mm256_loadu_si256((const __m256i *)(const void *)(src + 64));
        __m256i d = _mm256_loadu_si256((const __m256i *)(const void *)(src + 96));

        _mm256_stream_si256((__m256i *)(void *)dst, a);
        _mm256_stream_si256((__m256i *)(void *)(dst + 32), b);
        _mm256_stream_si256((__m256i *)(void *)(dst + 64), c);
        _mm256_stream_si256((__m256i *)(void *)(dst + 96), d);
    }
}

static void copy_stream_sse2(char *dst, const char *src, size_t blocks)
{
    for (size_t i = 0; i < blocks; i++, dst += 128, src += 128) {
        for (int k = 0; k < 128; k += 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + k));

            _mm_stream_si128((__m128i *)(void *)(dst + k), v);
        }
    }
}
#endif

void comm_copy_stream(void *dst, const void *src, size_t len)
{
#if defined(__x86_64__)
    char *d = dst;
    const char *s = src;
    size_t head = (32 - ((uintptr_t)d & 31)) & 31;

    if (len >= head + 128) {
        size_t blocks;

        memcpy(d, s, head);
        d += head;
        s += head;
        len -= head;
        blocks = len / 128;
        if (__builtin_cpu_supports("avx2")) {
            copy_stream_avx2(d, s, blocks);
        } else {
            copy_stream_sse2(d, s, blocks);
        }
        _mm_sfence();
        d += blocks * 128;
        s += blocks * 128;
        len -= blocks * 128;
    }
    memcpy(d, s, len);
#else
    memcpy(dst, src, len);
#endif
}
