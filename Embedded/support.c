// The firmware's C side: the Cortex-M4's vector table and reset, semihosting output and exit, the heap (a bump
// allocator over a fixed arena that counts every byte asked for: HEAP is what the Swift side allocated), a stack
// painted at reset so that its deepest use can be measured, and the input file's bytes (.incbin).
#include <stddef.h>
#include <stdint.h>
#include <string.h>

extern uint32_t __data_load, __data_start, __data_end, __bss_start, __bss_end, __stack_bottom, __stack_top;
extern uint32_t __flash_used, __ram_used;
int main(int argc, char **argv);

// ---- semihosting (ARM's "Angel" calls, which QEMU's -semihosting implements)
static int semihost(int reason, const void *argument) {
    register int r0 __asm__("r0") = reason;
    register const void *r1 __asm__("r1") = argument;
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

// Standard output: the host's ":tt" opened for writing (mode 4), once.
static int output_handle = -1;
void firmware_write(const uint8_t *bytes, size_t count) {
    if (output_handle < 0) {
        uint32_t open[3] = {(uint32_t)":tt", 4, 3};
        output_handle = semihost(0x01 /* SYS_OPEN */, open);
    }
    uint32_t block[3] = {(uint32_t)output_handle, (uint32_t)bytes, count};
    semihost(0x05 /* SYS_WRITE */, block);
}

// SYS_EXIT on 32-bit ARM takes the reason itself (ADP_Stopped_ApplicationExit: status 0); SYS_EXIT_EXTENDED takes
// the reason and a status.
__attribute__((noreturn)) void firmware_exit(int status) {
    uint32_t block[2] = {0x20026 /* ADP_Stopped_ApplicationExit */, (uint32_t)status};
    for (;;) {
        if (status == 0) semihost(0x18 /* SYS_EXIT */, (const void *)0x20026);
        semihost(0x20 /* SYS_EXIT_EXTENDED */, block);
    }
}

static void write_text(const char *text) { firmware_write((const uint8_t *)text, strlen(text)); }
static void write_number(size_t value) {
    char digits[24];
    int at = sizeof digits;
    digits[--at] = 0;
    do { digits[--at] = '0' + value % 10; value /= 10; } while (value);
    write_text(digits + at);
}

// ---- the heap: every allocation counted; none is expected
static uint8_t arena[16 * 1024] __attribute__((aligned(16), used));
static size_t arena_used, heap_bytes, heap_allocations;

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment < 8) alignment = 8;
    size_t start = (arena_used + alignment - 1) & ~(alignment - 1);
    if (start + size > sizeof arena) {
        write_text("HEAP exhausted\n");
        firmware_exit(3);
    }
    arena_used = start + size;
    heap_bytes += size;
    heap_allocations += 1;
    *result = arena + start;
    return 0;
}
void *malloc(size_t size) { void *p; posix_memalign(&p, 8, size); return p; }
void *aligned_alloc(size_t alignment, size_t size) { void *p; posix_memalign(&p, alignment, size); return p; }
void *calloc(size_t count, size_t size) { void *p = malloc(count * size); memset(p, 0, count * size); return p; }
void *realloc(void *old, size_t size) { void *p = malloc(size); if (old) memcpy(p, old, size); return p; }
void free(void *pointer) { (void)pointer; }

// Hasher's seed: fixed (no randomness on this board; nothing here hashes untrusted keys).
void arc4random_buf(void *buffer, size_t count) { memset(buffer, 0x5a, count); }

int putchar(int c) { uint8_t byte = (uint8_t)c; firmware_write(&byte, 1); return c; }

// ---- the framer's room for a sentence split across chunks: Framer.storageSize(maximumLength: 128, binaryFrames: 0),
// a static buffer instead of the heap (NMEA only: UBX and RTCM 3 frames are framed as noise)
static uint8_t framer_storage[128 + 2 + 8] __attribute__((aligned(8)));
uint8_t *firmware_framer_storage(size_t *count) {
    *count = sizeof framer_storage;
    return framer_storage;
}

// ---- the input file
__asm__(".section .nmeainput,\"a\"\n"
        ".global firmware_input_start\nfirmware_input_start:\n"
        ".incbin \"" FIRMWARE_INPUT "\"\n"
        ".global firmware_input_end\nfirmware_input_end:\n"
        ".byte 0\n.balign 4\n.text\n");
extern const uint8_t firmware_input_start[], firmware_input_end[];
const uint8_t *firmware_input(size_t *count) {
    *count = (size_t)(firmware_input_end - firmware_input_start);
    return firmware_input_start;
}

// ---- the report after the fixes: sizes from the linker's symbols, the heap, the deepest stack
#define STACK_PAINT 0xC0FFEE11u
void firmware_report(void) {
    size_t data = (size_t)((uint8_t *)&__data_end - (uint8_t *)&__data_start), text = (size_t)&__flash_used - data;
    // The arena is the heap's reserve, not the program's: not counted (it is kept, `used`, whether used or not).
    size_t bss = (size_t)((uint8_t *)&__bss_end - (uint8_t *)&__bss_start) - sizeof arena;
    const uint32_t *word = &__stack_bottom;
    while (word < &__stack_top && *word == STACK_PAINT) word++;
    size_t stack = (size_t)((const uint8_t *)&__stack_top - (const uint8_t *)word);
    write_text("SIZE text="); write_number(text);
    write_text(" data="); write_number(data);
    write_text(" bss="); write_number(bss);
    write_text(" stack="); write_number(stack);
    write_text("\nHEAP "); write_number(heap_bytes);
    write_text("\n");
}

// ---- reset
__attribute__((noreturn)) void reset(void) {
    // The Cortex-M4F's FPU on (CP10 and CP11, full access): the Swift standard library uses its registers.
    *(volatile uint32_t *)0xE000ED88 |= 0xFu << 20;
    __asm__ volatile("dsb\n isb");
    uint32_t *from = &__data_load, *to = &__data_start;
    while (to < &__data_end) *to++ = *from++;
    for (to = &__bss_start; to < &__bss_end; to++) *to = 0;
    // Paint the stack below the current frame (the reset handler's few words stay above).
    uint32_t here;
    for (to = &__stack_bottom; to < &here - 16; to++) *to = STACK_PAINT;
    char *argv[] = {0};
    int status = main(0, argv);
    firmware_exit(status);
}

__attribute__((noreturn)) static void fault(void) {
    write_text("FAULT\n");
    firmware_exit(2);
}

__attribute__((section(".vectors"), used)) const void *const vectors[16] = {
    &__stack_top, (void *)reset, (void *)fault, (void *)fault, (void *)fault, (void *)fault, (void *)fault,
};
