/* reply_inputs: the network inputs of every legal play of every roll, for the search's inner layer.
 * The search judges each position's replies to all 21 rolls only through their inputs (the best
 * value per roll); building a Play and a Position for each of them cost more than judging it. This
 * walks the same moves as legal_plays (choose_ends) and writes each result's inputs, as the next
 * player on roll sees them, straight into one float32 buffer. Included by _core.c after _encode.h. */

/* Grow a malloc'd array of ``item``-byte values (doubling from ``first``) to hold at least ``need``
 * of them; -1 when out of memory (the array is then unchanged). */
static int grow_array(void **buf, Py_ssize_t *cap, Py_ssize_t need, size_t item, Py_ssize_t first) {
    if (need <= *cap) return 0;
    Py_ssize_t size = *cap ? *cap : first;
    while (size < need) size *= 2;
    void *bigger = realloc(*buf, item * (size_t)size);
    if (bigger == NULL) return -1;
    *buf = bigger;
    *cap = size;
    return 0;
}

/* Grow a malloc'd float buffer to hold at least ``need`` values; -1 when out of memory. */
static int reserve_floats(float **buf, Py_ssize_t *cap, Py_ssize_t need) {
    void *raw = *buf;
    int failed = grow_array(&raw, cap, need, sizeof(float), 4096);
    *buf = (float *)raw;
    return failed;
}

/* Where the rows of reply inputs go: the caller's float32 buffer (once a roll's rows do not fit, rows
 * are counted but not written, so that the caller can grow it and ask again; a buffer kept from call
 * to call is written in place, with no fresh pages and no copy), or a malloc'd one grown as needed. */
typedef struct {
    float *rows;
    Py_ssize_t cap; /* floats */
    Py_ssize_t width;
    int borrowed; /* rows is the caller's buffer */
} RowSink;

/* Row ``at`` with room for ``count`` rows; NULL when they do not fit the caller's buffer (nothing
 * to write), or with *failed set when out of memory. */
static float *sink_rows(RowSink *s, Py_ssize_t at, Py_ssize_t count, int *failed) {
    Py_ssize_t need = (at + count) * s->width;
    if (need > s->cap) {
        if (s->borrowed) return NULL;
        if (reserve_floats(&s->rows, &s->cap, need) < 0) {
            *failed = 1;
            return NULL;
        }
    }
    return s->rows + at * s->width;
}

/* Set up a sink on ``out`` (None: a malloc'd one) for rows of ``width``; -1 with an exception set. */
static int sink_open(RowSink *s, PyObject *out, Py_ssize_t width, Py_buffer *view) {
    s->rows = NULL;
    s->cap = 0;
    s->width = width;
    s->borrowed = out != Py_None;
    if (!s->borrowed) return 0;
    if (PyObject_GetBuffer(out, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    if (view->format == NULL || strcmp(view->format, "f") != 0) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "out must be a float32 buffer");
        return -1;
    }
    s->rows = (float *)view->buf;
    s->cap = view->len / (Py_ssize_t)sizeof(float);
    return 0;
}

/* The rows as the answer's first item: their count (a borrowed buffer) or bytes. Frees or releases. */
static PyObject *sink_close(RowSink *s, Py_ssize_t used, Py_buffer *view, int keep) {
    PyObject *answer = NULL;
    if (s->borrowed) {
        if (keep) answer = PyLong_FromSsize_t(used);
        PyBuffer_Release(view);
    } else {
        if (keep) answer = PyBytes_FromStringAndSize((const char *)s->rows, (Py_ssize_t)sizeof(float) * used * s->width);
        free(s->rows);
    }
    return answer;
}

/* Write the afterstate inputs (flip: the opponent, now on roll) of a result into ``to``. */
static void put_afterstate(const int *board, int me_off, int opp_off, int extended, Py_ssize_t width,
                           float *to) {
    int turned[POINTS];
    double row[N_INPUTS_V3];
    for (int i = 0; i < POINTS; i++) turned[i] = -board[(i + 12) % POINTS];
    encode_one(turned, opp_off, me_off, extended, row);
    for (Py_ssize_t i = 0; i < width; i++) to[i] = (float)row[i];
}

/* reply_inputs(positions, unlock_point, strict, extended, out=None) -> (bytes | int, bytes): for
 * each position and each of the 21 rolls (1-1, 1-2, ..., 6-6, as fevga.ai.search.ROLLS), the float32
 * inputs of each legal play's result (a pass: the position itself), in legal_plays' order, and the
 * int32 count of rows per (position, roll). With ``out`` (a writable float32 buffer) the rows are
 * written into it and the first item is their count; when they are more than ``out`` holds, it is
 * not written past its end, and the caller grows it and asks again. */
static PyObject *core_reply_inputs(PyObject *self, PyObject *args) {
    PyObject *seq, *out = Py_None;
    int unlock_point, strict, extended;
    if (!PyArg_ParseTuple(args, "Oipp|O", &seq, &unlock_point, &strict, &extended, &out)) return NULL;
    if (unlock_point < 1 || unlock_point > 24) {
        PyErr_SetString(PyExc_ValueError, "unlock_point must be 13 or 14");
        return NULL;
    }
    Py_ssize_t width = extended ? N_INPUTS_V3 : N_INPUTS;
    RowSink sink;
    Py_buffer view;
    if (sink_open(&sink, out, width, &view) < 0) return NULL;
    PyObject *fast = PySequence_Fast(seq, "positions must be a sequence");
    if (fast == NULL) {
        sink_close(&sink, 0, &view, 0);
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    int32_t *counts = (int32_t *)malloc(sizeof(int32_t) * (size_t)(n * 21 + 1));
    Py_ssize_t used = 0;
    int failed = 0, ok = 0;
    if (counts == NULL) goto nomem;
    int start[POINTS], board[POINTS];
    for (Py_ssize_t k = 0; k < n; k++) {
        int me_off, opp_off;
        if (read_position(PySequence_Fast_GET_ITEM(fast, k), start, &me_off, &opp_off) < 0) goto done;
        int roll = 0;
        for (int a = 1; a <= 6; a++) {
            for (int b = a; b <= 6; b++, roll++) {
                End *chosen;
                int m = choose_ends(start, me_off, opp_off, a, b, unlock_point, strict, &chosen);
                if (m < 0) goto done;
                Py_ssize_t rows_here = m ? m : 1;
                float *to = sink_rows(&sink, used, rows_here, &failed);
                if (failed) {
                    free(chosen);
                    goto nomem;
                }
                if (to != NULL && m == 0) {
                    put_afterstate(start, me_off, opp_off, extended, width, to);
                } else if (to != NULL) {
                    for (int j = 0; j < m; j++) {
                        decode_board(&chosen[j], start, board);
                        int off = (int)((chosen[j].hi >> 32) & 15);
                        put_afterstate(board, off, opp_off, extended, width, to + j * width);
                    }
                }
                free(chosen);
                counts[k * 21 + roll] = (int32_t)rows_here;
                used += rows_here;
            }
        }
    }
    ok = 1;
    goto done;
nomem:
    PyErr_NoMemory();
done:;
    PyObject *answer = NULL, *data = sink_close(&sink, used, &view, ok);
    if (data != NULL) {
        PyObject *sizes = PyBytes_FromStringAndSize((const char *)counts, (Py_ssize_t)sizeof(int32_t) * n * 21);
        if (sizes != NULL) answer = PyTuple_Pack(2, data, sizes);
        Py_XDECREF(sizes);
        Py_DECREF(data);
    }
    free(counts);
    Py_DECREF(fast);
    return answer;
}
