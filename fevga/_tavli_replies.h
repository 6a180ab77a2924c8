/* The search's inner layer for Portes and Plakoto, as _replies.h is for Fevga: every legal play's
 * result for each of the 21 rolls goes from the move walk straight to network inputs (no TavliPlay
 * or TavliPosition objects), with the points the result ends the game with. Also the game ends of
 * many positions at once (encoding_portes/plakoto.outcomes). Included by _core.c after
 * _tavli_encode.h and _replies.h (reserve_floats).
 */

/* Points the mover has won with a play's result (mover's view), NaN while the game goes on: the
 * same values as encoding_portes.outcomes and encoding_plakoto.outcomes (mother rule "exception"). */
static double tavli_outcome(const TavliWalk *r, int opp_off) {
    double out = Py_NAN;
    if (r->plakoto) {
        int mine = r->pins[0] == 1, his = r->pins[POINTS - 1] == -1;
        if (mine && r->board[POINTS - 1] >= 0) out = -2.0;
        if (his && r->board[0] <= 0) out = 2.0;
        if (mine && his) out = 0.0;
        if (opp_off >= CHECKERS) out = r->off == 0 ? -2.0 : -1.0;
    }
    if (r->off >= CHECKERS) out = opp_off == 0 ? 2.0 : 1.0;
    return out;
}

/* The inputs of a result as the opponent, now on roll, sees it (encode_tavli with flip), in float32. */
static void tavli_put_afterstate(const TavliWalk *r, int opp_off, int opp_bar, Py_ssize_t width, float *to) {
    TavliWalk turned = *r;
    double row[PLAKOTO_INPUTS > PORTES_INPUTS ? PLAKOTO_INPUTS : PORTES_INPUTS];
    for (int i = 0; i < POINTS; i++) {
        turned.board[i] = -r->board[POINTS - 1 - i];
        turned.pins[i] = -r->pins[POINTS - 1 - i];
    }
    turned.bar = opp_bar;
    turned.off = opp_off;
    encode_tavli_one(&turned, r->off, r->bar, row);
    for (Py_ssize_t i = 0; i < width; i++) to[i] = (float)row[i];
}

/* Room for ``need`` game-end points; -1 when out of memory. */
static int reserve_points(double **points, Py_ssize_t *cap, Py_ssize_t need) {
    void *raw = *points;
    int failed = grow_array(&raw, cap, need, sizeof(double), 1024);
    *points = (double *)raw;
    return failed;
}

/* tavli_reply_inputs(positions, out=None) -> (bytes | int, bytes, bytes): for each Portes or Plakoto
 * position (all of one game) and each of the 21 rolls (1-1, 1-2, ..., 6-6, as
 * fevga.ai.replies.ROLLS), the float32 inputs (the opponent on roll) of each legal play's result in
 * tavli_legal_plays' order (a pass: the position itself), the float64 points the mover has won with
 * it (NaN: the game goes on), and the int32 count of rows per (position, roll). ``out`` works as in
 * reply_inputs: the rows are written into it and the first item is their count. */
static PyObject *core_tavli_reply_inputs(PyObject *self, PyObject *args) {
    PyObject *seq, *out = Py_None;
    if (!PyArg_ParseTuple(args, "O|O", &seq, &out)) return NULL;
    if (tavli_not_ready()) return NULL;
    tavli_encode_tables();
    PyObject *fast = PySequence_Fast(seq, "positions must be a sequence");
    if (fast == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    int32_t *counts = (int32_t *)malloc(sizeof(int32_t) * (size_t)(n * N_ROLLS + 1));
    double *points = NULL;
    Py_ssize_t pcap = 0, used = 0;
    int game = -1, failed = 0, ok = 0, opened = 0;
    RowSink sink;
    Py_buffer view;
    if (counts == NULL) goto nomem;
    for (Py_ssize_t k = 0; k < n; k++) {
        TavliWalk start, w, res;
        int opp_off, opp_bar;
        if (read_tavli(PySequence_Fast_GET_ITEM(fast, k), &start, &opp_off, &opp_bar) < 0) goto done;
        if (game < 0) {
            game = start.plakoto;
            if (sink_open(&sink, out, game ? PLAKOTO_INPUTS : PORTES_INPUTS, &view) < 0) goto done;
            opened = 1;
        } else if (start.plakoto != game) {
            PyErr_SetString(PyExc_ValueError, "positions of one game only (Portes or Plakoto)");
            goto done;
        }
        int over = start.off >= CHECKERS || opp_off >= CHECKERS;
        int roll = 0;
        for (int a = 1; a <= 6; a++) {
            for (int b = a; b <= 6; b++, roll++) {
                End *chosen = NULL;
                int m = 0;
                if (!over) {
                    w = start;
                    if (tavli_search(&w, a, b) < 0) goto nomem;
                    m = tavli_choose(a, b, &chosen);
                    if (m < 0) goto nomem;
                }
                Py_ssize_t here = m ? m : 1;
                float *to = sink_rows(&sink, used, here, &failed);
                if (failed || reserve_points(&points, &pcap, used + here) < 0) {
                    free(chosen);
                    goto nomem;
                }
                if (m == 0) { /* the pass: the position itself */
                    if (to != NULL) tavli_put_afterstate(&start, opp_off, opp_bar, sink.width, to);
                    points[used] = tavli_outcome(&start, opp_off);
                }
                for (int j = 0; j < m; j++) {
                    int res_opp_bar;
                    res = start;
                    tavli_decode(&chosen[j], &start, opp_bar, res.board, res.pins, &res.bar, &res_opp_bar, &res.off);
                    if (to != NULL) tavli_put_afterstate(&res, opp_off, res_opp_bar, sink.width, to + j * sink.width);
                    points[used + j] = tavli_outcome(&res, opp_off);
                }
                free(chosen);
                counts[k * N_ROLLS + roll] = (int32_t)here;
                used += here;
            }
        }
    }
    ok = 1;
    goto done;
nomem:
    PyErr_NoMemory();
done:;
    PyObject *answer = NULL, *data = NULL;
    if (opened) {
        data = sink_close(&sink, used, &view, ok);
    } else if (ok) { /* no positions */
        data = out == Py_None ? PyBytes_FromStringAndSize(NULL, 0) : PyLong_FromLong(0);
    }
    if (data != NULL) {
        PyObject *ends_of = PyBytes_FromStringAndSize((const char *)points, (Py_ssize_t)sizeof(double) * used);
        PyObject *sizes = PyBytes_FromStringAndSize((const char *)counts, (Py_ssize_t)sizeof(int32_t) * n * N_ROLLS);
        if (ends_of != NULL && sizes != NULL) answer = PyTuple_Pack(3, data, ends_of, sizes);
        Py_XDECREF(ends_of);
        Py_XDECREF(sizes);
        Py_DECREF(data);
    }
    free(points);
    free(counts);
    Py_DECREF(fast);
    return answer;
}

/* tavli_outcomes(positions, out): into ``out`` (a writable C-contiguous float64 buffer of one value
 * per position), the points the mover has won with each play result, NaN while the game goes on. */
static PyObject *core_tavli_outcomes(PyObject *self, PyObject *args) {
    PyObject *seq, *target;
    if (!PyArg_ParseTuple(args, "OO", &seq, &target)) return NULL;
    if (tavli_not_ready()) return NULL;
    PyObject *fast = PySequence_Fast(seq, "positions must be a sequence");
    if (fast == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    Py_buffer view;
    if (PyObject_GetBuffer(target, &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        Py_DECREF(fast);
        return NULL;
    }
    PyObject *answer = NULL;
    if (view.len != n * (Py_ssize_t)sizeof(double)) {
        PyErr_Format(PyExc_ValueError, "out must hold %zd float64 values", n);
        goto done;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        TavliWalk w;
        int opp_off, opp_bar;
        if (read_tavli(PySequence_Fast_GET_ITEM(fast, k), &w, &opp_off, &opp_bar) < 0) goto done;
        ((double *)view.buf)[k] = tavli_outcome(&w, opp_off);
    }
    answer = Py_None;
    Py_INCREF(answer);
done:
    PyBuffer_Release(&view);
    Py_DECREF(fast);
    return answer;
}
