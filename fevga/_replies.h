/* reply_inputs: the network inputs of every legal play of every roll, for the search's inner layer.
 * The search judges each position's replies to all 21 rolls only through their inputs (the best
 * value per roll); building a Play and a Position for each of them cost more than judging it. This
 * walks the same moves as legal_plays (choose_ends) and writes each result's inputs, as the next
 * player on roll sees them, straight into one float32 buffer. Included by _core.c after _encode.h. */

/* Grow a malloc'd float buffer to hold at least ``need`` values; -1 when out of memory. */
static int reserve_floats(float **buf, Py_ssize_t *cap, Py_ssize_t need) {
    if (need <= *cap) return 0;
    Py_ssize_t size = *cap ? *cap : 4096;
    while (size < need) size *= 2;
    float *bigger = (float *)realloc(*buf, sizeof(float) * (size_t)size);
    if (bigger == NULL) return -1;
    *buf = bigger;
    *cap = size;
    return 0;
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

/* reply_inputs(positions, unlock_point, strict, extended) -> (bytes, bytes): for each position and
 * each of the 21 rolls (1-1, 1-2, ..., 6-6, as fevga.ai.search.ROLLS), the float32 inputs of each
 * legal play's result (a pass: the position itself), in legal_plays' order, and the int32 count of
 * rows per (position, roll). */
static PyObject *core_reply_inputs(PyObject *self, PyObject *args) {
    PyObject *seq;
    int unlock_point, strict, extended;
    if (!PyArg_ParseTuple(args, "Oipp", &seq, &unlock_point, &strict, &extended)) return NULL;
    if (unlock_point < 1 || unlock_point > 24) {
        PyErr_SetString(PyExc_ValueError, "unlock_point must be 13 or 14");
        return NULL;
    }
    PyObject *fast = PySequence_Fast(seq, "positions must be a sequence");
    if (fast == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    Py_ssize_t width = extended ? N_INPUTS_V3 : N_INPUTS;
    int32_t *counts = (int32_t *)malloc(sizeof(int32_t) * (size_t)(n * 21 + 1));
    float *rows = NULL;
    Py_ssize_t cap = 0, used = 0;
    PyObject *answer = NULL;
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
                if (reserve_floats(&rows, &cap, (used + rows_here) * width) < 0) {
                    free(chosen);
                    goto nomem;
                }
                if (m == 0) {
                    put_afterstate(start, me_off, opp_off, extended, width, rows + used * width);
                } else {
                    for (int j = 0; j < m; j++) {
                        decode_board(&chosen[j], start, board);
                        int off = (int)((chosen[j].hi >> 32) & 15);
                        put_afterstate(board, off, opp_off, extended, width, rows + (used + j) * width);
                    }
                }
                free(chosen);
                counts[k * 21 + roll] = (int32_t)rows_here;
                used += rows_here;
            }
        }
    }
    {
        PyObject *data = PyBytes_FromStringAndSize((const char *)rows, (Py_ssize_t)sizeof(float) * used * width);
        PyObject *sizes = PyBytes_FromStringAndSize((const char *)counts, (Py_ssize_t)sizeof(int32_t) * n * 21);
        if (data != NULL && sizes != NULL) answer = PyTuple_Pack(2, data, sizes);
        Py_XDECREF(data);
        Py_XDECREF(sizes);
    }
    goto done;
nomem:
    PyErr_NoMemory();
done:
    free(rows);
    free(counts);
    Py_DECREF(fast);
    return answer;
}
