/* The network's inputs (fevga/ai/encoding.py, same layout and the same float64 values), computed
 * in C for many positions at once into one bytes buffer the caller views with numpy.frombuffer.
 * Included by _core.c (one extension module).
 */
#define PER_SIDE (4 * POINTS + 8)
#define N_INPUTS (2 * PER_SIDE + 1)
/* The v3 encoding: the base inputs, then EXTRA_PER_SIDE Fevga-specific inputs per side and 2 pip leads. */
#define EXTRA_PER_SIDE 5
#define N_INPUTS_V3 (N_INPUTS + 2 * EXTRA_PER_SIDE + 2)

/* One side: mine[j] and other[j] are counts on each side's own track (index j = point j + 1). */
static void encode_side(const int *mine, const int *other, int off, double *out) {
    double pips = 0.0;
    int any_ahead_of_12 = 0, home = 0;
    for (int j = 0; j < POINTS; j++) {
        int m = mine[j];
        out[4 * j] = m >= 1 ? 1.0 : 0.0;
        out[4 * j + 1] = m >= 2 ? 1.0 : 0.0;
        out[4 * j + 2] = m >= 3 ? 1.0 : 0.0;
        out[4 * j + 3] = m > 3 ? (double)(m - 3) / 2.0 : 0.0;
        pips += (double)m * (double)(POINTS - j);
        if (j >= 12 && m > 0) any_ahead_of_12 = 1;
        if (j >= 18) home += m;
    }
    out[96] = (double)off / 15.0;
    out[97] = pips / 200.0;
    out[98] = (off > 0 || any_ahead_of_12) ? 1.0 : 0.0;
    out[99] = (double)mine[0] / 15.0;
    out[100] = (double)(home + off) / 15.0;
    int rear = POINTS;
    for (int j = 0; j < POINTS; j++) {
        if (other[j] > 0) {
            rear = j;
            break;
        }
    }
    int near = 0, ahead = 0, run = 0, best = 0;
    for (int j = 0; j < POINTS; j++) {
        int made = mine[(j + 12) % POINTS] > 0; /* my checkers on the other's point j + 1 */
        int is_ahead = made && rear < j;
        int is_near = is_ahead && rear + 12 >= j;
        ahead += is_ahead;
        near += is_near;
        run = is_near ? run + 1 : 0;
        if (run > best) best = run;
    }
    out[101] = (double)near / 6.0;
    out[102] = (double)best / 6.0;
    out[103] = (double)ahead / 12.0;
}

/* Of the 36 rolls, those with which the checker on index rear alone (landing only on points not
 * blocked, never past index 23) passes the furthest block within 12 points ahead of it. ``blocked``
 * holds 48 flags: indexes 24..47 (past the board) are set. */
static int escapes(const int *blocked, int rear) {
    int last = -1;
    int top = rear + 12 < POINTS - 1 ? rear + 12 : POINTS - 1;
    for (int j = rear + 1; j <= top; j++)
        if (blocked[j]) last = j;
    if (last < 0) return 36;
    int count = 0;
    for (int d = 1; d <= 6; d++) { /* doubles: up to four steps of d */
        int p = rear;
        for (int k = 0; k < 4; k++) {
            p += d;
            if (blocked[p]) break;
            if (p > last) {
                count++;
                break;
            }
        }
    }
    for (int d1 = 1; d1 <= 6; d1++) {
        for (int d2 = d1 + 1; d2 <= 6; d2++) { /* each counts twice: d1-d2 and d2-d1 */
            int a = rear + d1, b = rear + d2, c = rear + d1 + d2;
            int via = (!blocked[a] || !blocked[b]) && !blocked[c] && c > last;
            if ((!blocked[a] && a > last) || (!blocked[b] && b > last) || via) count += 2;
        }
    }
    return count;
}

/* One side's Fevga-specific inputs (encoding.py's _extra_side): mine and other on their own tracks. */
static void encode_extra_side(const int *mine, const int *other, double *out) {
    int blocked[2 * POINTS], run[POINTS + 2], best[POINTS + 1];
    for (int j = 0; j < POINTS; j++) blocked[j] = other[(j + 12) % POINTS] > 0;
    for (int j = POINTS; j < 2 * POINTS; j++) blocked[j] = 1;
    run[POINTS] = run[POINTS + 1] = 0;
    best[POINTS] = 0;
    for (int j = POINTS - 1; j >= 0; j--) {
        run[j] = blocked[j] ? run[j + 1] + 1 : 0;
        best[j] = best[j + 1] > run[j + 1] ? best[j + 1] : run[j + 1];
    }
    int trapped[3] = {0, 0, 0}, rear = POINTS;
    for (int j = POINTS - 1; j >= 0; j--) {
        if (mine[j] <= 0) continue;
        rear = j;
        for (int k = 0; k < 3; k++)
            if (best[j] >= 4 + k) trapped[k] += mine[j];
    }
    for (int k = 0; k < 3; k++) out[k] = (double)trapped[k] / 15.0;
    out[3] = (double)run[rear + 1] / 6.0;
    out[4] = (double)(rear < POINTS ? escapes(blocked, rear) : 36) / 36.0;
}

/* Inputs for a signed board seen by the player on roll; with extended, the v3 encoding. */
static void encode_one(const int *board, int me_off, int opp_off, int extended, double *out) {
    int mine[POINTS], theirs[POINTS];
    for (int j = 0; j < POINTS; j++) {
        mine[j] = board[j] > 0 ? board[j] : 0;
        int t = board[(j + 12) % POINTS];
        theirs[j] = t < 0 ? -t : 0;
    }
    encode_side(mine, theirs, me_off, out);
    encode_side(theirs, mine, opp_off, out + PER_SIDE);
    int race = out[103] == 0.0 && out[PER_SIDE + 103] == 0.0;
    out[N_INPUTS - 1] = race ? 1.0 : 0.0;
    if (!extended) return;
    encode_extra_side(mine, theirs, out + N_INPUTS);
    encode_extra_side(theirs, mine, out + N_INPUTS + EXTRA_PER_SIDE);
    double my_pips = 0.0, their_pips = 0.0;
    for (int j = 0; j < POINTS; j++) {
        my_pips += (double)mine[j] * (double)(POINTS - j);
        their_pips += (double)theirs[j] * (double)(POINTS - j);
    }
    double lead = (their_pips - my_pips) / 100.0;
    out[N_INPUTS_V3 - 2] = lead;
    out[N_INPUTS_V3 - 1] = race ? lead : 0.0;
}

/* encode(positions, flip, out): write rows of N_INPUTS (or N_INPUTS_V3: the encoding is read off
 * the buffer's size) into ``out``, a writable C-contiguous buffer of len(positions) * width float64
 * or float32 values (numpy arrays; float32 feeds the network's forward pass without a copy); with
 * flip, each position is first seen by the other player (a play's result as the opponent on roll
 * sees it). */
static PyObject *core_encode(PyObject *self, PyObject *args) {
    PyObject *seq, *target;
    int flip;
    if (!PyArg_ParseTuple(args, "OpO", &seq, &flip, &target)) return NULL;
    PyObject *fast = PySequence_Fast(seq, "positions must be a sequence");
    if (fast == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    Py_buffer view;
    if (PyObject_GetBuffer(target, &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        Py_DECREF(fast);
        return NULL;
    }
    const char *format = view.format == NULL ? "B" : view.format;
    int single = strcmp(format, "f") == 0;
    if (!single && strcmp(format, "d") != 0) {
        PyBuffer_Release(&view);
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "out must hold float64 or float32 values");
        return NULL;
    }
    Py_ssize_t item = single ? (Py_ssize_t)sizeof(float) : (Py_ssize_t)sizeof(double);
    int extended = n > 0 && view.len == n * N_INPUTS_V3 * item;
    Py_ssize_t width = extended ? N_INPUTS_V3 : N_INPUTS;
    if (view.len != n * width * item) {
        PyBuffer_Release(&view);
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "out must hold %zd (or %zd) values", n * N_INPUTS, n * N_INPUTS_V3);
        return NULL;
    }
    double row[N_INPUTS_V3];
    int board[POINTS], turned[POINTS];
    for (Py_ssize_t k = 0; k < n; k++) {
        int me_off, opp_off;
        if (read_position(PySequence_Fast_GET_ITEM(fast, k), board, &me_off, &opp_off) < 0) {
            PyBuffer_Release(&view);
            Py_DECREF(fast);
            return NULL;
        }
        double *dest = single ? row : (double *)view.buf + k * width;
        if (flip) {
            for (int i = 0; i < POINTS; i++) turned[i] = -board[(i + 12) % POINTS];
            encode_one(turned, opp_off, me_off, extended, dest);
        } else {
            encode_one(board, me_off, opp_off, extended, dest);
        }
        if (single) {
            float *to = (float *)view.buf + k * width;
            for (Py_ssize_t i = 0; i < width; i++) to[i] = (float)row[i];
        }
    }
    PyBuffer_Release(&view);
    Py_DECREF(fast);
    Py_RETURN_NONE;
}
