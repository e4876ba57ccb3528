// The firmware's C side in WebAssembly: the host (Embedded/run-wasm.py, in wasmtime) hands over the input file and
// takes the output; the heap is a counting bump allocator, as on the Cortex-M4 (support.c). No C library: the few
// functions the Swift runtime calls are here (memory.copy and memory.fill do the copying: -mbulk-memory).
typedef __SIZE_TYPE__ size_t;
typedef unsigned char uint8_t;

__attribute__((import_module("host"), import_name("input_size"))) size_t host_input_size(void);
__attribute__((import_module("host"), import_name("input_read"))) void host_input_read(uint8_t *buffer);
__attribute__((import_module("host"), import_name("write"))) void host_write(const uint8_t *bytes, size_t count);

void *memcpy(void *to, const void *from, size_t count) { __builtin_memcpy(to, from, count); return to; }
void *memmove(void *to, const void *from, size_t count) { __builtin_memmove(to, from, count); return to; }
void *memset(void *to, int value, size_t count) { __builtin_memset(to, value, count); return to; }
int memcmp(const void *a, const void *b, size_t count) {
    const uint8_t *x = a, *y = b;
    for (size_t i = 0; i < count; i++) if (x[i] != y[i]) return x[i] - y[i];
    return 0;
}
size_t strlen(const char *text) { size_t n = 0; while (text[n]) n++; return n; }

static uint8_t arena[16 * 1024] __attribute__((aligned(16)));
static size_t arena_used, heap_bytes;
int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment < 8) alignment = 8;
    size_t start = (arena_used + alignment - 1) & ~(alignment - 1);
    if (start + size > sizeof arena) __builtin_trap();
    arena_used = start + size;
    heap_bytes += size;
    *result = arena + start;
    return 0;
}
void *malloc(size_t size) { void *p; posix_memalign(&p, 8, size); return p; }
void *calloc(size_t count, size_t size) { void *p = malloc(count * size); memset(p, 0, count * size); return p; }
void *realloc(void *old, size_t size) { void *p = malloc(size); if (old) memcpy(p, old, size); return p; }
void free(void *pointer) { (void)pointer; }
void arc4random_buf(void *buffer, size_t count) { memset(buffer, 0x5a, count); }
int putchar(int c) { uint8_t byte = (uint8_t)c; host_write(&byte, 1); return c; }
void firmware_write(const uint8_t *bytes, size_t count) { host_write(bytes, count); }

// The framer's room for a split sentence, as on the Cortex-M4 (support.c).
static uint8_t framer_storage[128 + 2 + 8] __attribute__((aligned(8)));
uint8_t *firmware_framer_storage(size_t *count) {
    *count = sizeof framer_storage;
    return framer_storage;
}

static uint8_t input[2 * 1024 * 1024];
const uint8_t *firmware_input(size_t *count) {
    *count = host_input_size();
    if (*count > sizeof input) __builtin_trap();
    host_input_read(input);
    return input;
}

static void write_text(const char *text) { host_write((const uint8_t *)text, strlen(text)); }
static void write_number(size_t value) {
    char digits[24];
    int at = sizeof digits;
    digits[--at] = 0;
    do { digits[--at] = '0' + value % 10; value /= 10; } while (value);
    write_text(digits + at);
}
void firmware_report(void) {
    write_text("HEAP "); write_number(heap_bytes); write_text("\n");
}

// What compiler-rt and libm would give: the Swift standard library's 128-bit multiply, and two of libm's functions.
typedef unsigned long long u64;
__int128 __multi3(__int128 a, __int128 b) {
    u64 al = (u64)a, ah = (u64)((unsigned __int128)a >> 64), bl = (u64)b, bh = (u64)((unsigned __int128)b >> 64);
    u64 a0 = al & 0xffffffffu, a1 = al >> 32, b0 = bl & 0xffffffffu, b1 = bl >> 32;
    u64 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    u64 mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    u64 low = (mid << 32) | (p00 & 0xffffffffu);
    u64 high = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32) + al * bh + ah * bl;
    return (__int128)(((unsigned __int128)high << 64) | low);
}

double round(double x) {  // halves away from zero
    double whole = __builtin_trunc(x);
    if (__builtin_fabs(x - whole) >= 0.5) whole += __builtin_copysign(1.0, x);
    return whole;
}

double fmod(double x, double y) {  // exact: only subtractions of y times powers of two
    if (y == 0 || x != x || y != y || __builtin_isinf(x)) return __builtin_nan("");
    double divisor = __builtin_fabs(y), rest = __builtin_fabs(x);
    while (rest >= divisor) {
        double multiple = divisor;
        while (multiple * 2 <= rest) multiple *= 2;
        rest -= multiple;
    }
    return __builtin_copysign(rest, x);
}
