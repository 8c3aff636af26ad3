/* libFuzzer target for the terminal input path: arbitrary bytes from a
 * sandboxed program, split into arbitrary reads, with resizes between
 * them, must neither crash nor hang the emulator. Build (from the top):
 *   clang -g -O1 -std=c11 -D_GNU_SOURCE -I. -fsanitize=fuzzer,address,undefined \
 *     -fno-sanitize-recover=undefined \
 *     -o build/fuzz_vt tests/fuzz/fuzz_vt.c pty/vt.c pty/vt-keys.c pty/grid.c \
 *     pty/grid-reflow.c pty/utf8.c -lvterm
 *   ./build/fuzz_vt -max_total_time=60 */
#include <stddef.h>
#include <stdint.h>

#include "pty/vt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 3)
		return 0;
	/* The first bytes choose the size and how the rest is split. */
	struct vt *vt = vt_new(1 + data[0] % 60, 1 + data[1] % 200, data[2] % 4 ? 50 : 0);
	if (!vt)
		return 0;
	size_t chunk = 1 + data[2] % 97;
	char out[256];
	for (size_t off = 3; off < size; off += chunk) {
		size_t n = size - off < chunk ? size - off : chunk;
		vt_write(vt, (const char *)data + off, n);
		if (data[off] == 0xff)
			vt_resize(vt, 1 + data[off - 1] % 60, 1 + data[off - 2] % 200);
		vt_take_reply(vt, out, sizeof out);
	}
	for (int r = -vt_history(vt); r < vt_rows(vt); r++)
		for (int c = 0; c < vt_cols(vt); c++)
			if (vt_cell(vt, r, c)->width > 2)
				__builtin_trap();
	int row, col;
	vt_cursor(vt, &row, &col);
	if (row < 0 || row >= vt_rows(vt) || col < 0 || col >= vt_cols(vt))
		__builtin_trap();
	vt_key(vt, VT_KEY_UP, VT_MOD_CTRL, out, sizeof out);
	vt_mouse(vt, row, col, 1, true, 0, out, sizeof out);
	vt_free(vt);
	return 0;
}
