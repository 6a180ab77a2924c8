/* The Python side of the compiled Portes and Plakoto move generator: it reads a TavliPosition,
 * runs the search of _tavli_walk.h and builds the TavliPlay and TavliPosition objects exactly as
 * fevga.variants.tavli.tavli_legal_plays does (same order, same recorded steps, `_hits` left None
 * so the steps are put in canonical order on first read, `_rule` the game's step rule class).
 * Included by _core.c after the Fevga builders it reuses (put_slot, get_slot, steps_tuple, ...).
 */
#include "_tavli_walk.h"

static PyTypeObject *tavli_position_type = NULL;
static PyTypeObject *tavli_play_type = NULL;
static PyObject *portes_rule = NULL, *plakoto_rule = NULL; /* PortesSteps, PlakotoSteps */
static Py_ssize_t o_game, o_pins, o_me_bar, o_opp_bar;       /* slot offsets in TavliPosition */
static Py_ssize_t o_hits, o_rule;                             /* slot offsets in TavliPlay */

/* init_tavli(TavliPosition, TavliPlay, PortesSteps, PlakotoSteps): remember the classes and slots.
 * init() must have been called first (TavliPosition and TavliPlay extend Position and Play). */
static PyObject *core_init_tavli(PyObject *self, PyObject *args) {
    PyObject *pos_cls, *play_cls, *portes, *plakoto;
    if (!PyArg_ParseTuple(args, "O!O!OO", &PyType_Type, &pos_cls, &PyType_Type, &play_cls, &portes, &plakoto))
        return NULL;
    if (position_type == NULL || !PyType_IsSubtype((PyTypeObject *)pos_cls, position_type) ||
        !PyType_IsSubtype((PyTypeObject *)play_cls, play_type)) {
        PyErr_SetString(PyExc_TypeError, "init(Position, Play) first; then subclasses of them");
        return NULL;
    }
    if (slot_offset(pos_cls, "game", &o_game) < 0 || slot_offset(pos_cls, "pins", &o_pins) < 0 ||
        slot_offset(pos_cls, "me_bar", &o_me_bar) < 0 || slot_offset(pos_cls, "opp_bar", &o_opp_bar) < 0 ||
        slot_offset(play_cls, "_hits", &o_hits) < 0 || slot_offset(play_cls, "_rule", &o_rule) < 0)
        return NULL;
    for (int dst = 1; dst <= 6; dst++) { /* entering from the bar: (0, d) */
        if (step_pairs[0][dst] == NULL) {
            step_pairs[0][dst] = Py_BuildValue("(ii)", 0, dst);
            if (step_pairs[0][dst] == NULL) return NULL;
        }
    }
    Py_INCREF(pos_cls);
    Py_INCREF(play_cls);
    Py_INCREF(portes);
    Py_INCREF(plakoto);
    Py_XSETREF(tavli_position_type, (PyTypeObject *)pos_cls);
    Py_XSETREF(tavli_play_type, (PyTypeObject *)play_cls);
    Py_XSETREF(portes_rule, portes);
    Py_XSETREF(plakoto_rule, plakoto);
    Py_RETURN_NONE;
}

/* 1 with a RuntimeError set when init_tavli() has not been called yet, else 0. */
static int tavli_not_ready(void) {
    if (tavli_position_type != NULL) return 0;
    PyErr_SetString(PyExc_RuntimeError, "fevga._core.init_tavli() was not called");
    return 1;
}

/* A small int slot of a TavliPosition in lo..hi, or -1 with an exception set. */
static int small_slot(PyObject *position, Py_ssize_t offset, int lo, int hi, const char *what) {
    PyObject *v = get_slot(position, offset);
    if (v == NULL) {
        PyErr_SetString(PyExc_ValueError, "uninitialised TavliPosition");
        return -1;
    }
    long x = PyLong_AsLong(v);
    if (x == -1 && PyErr_Occurred()) return -1;
    if (x < lo || x > hi) {
        PyErr_Format(PyExc_ValueError, "%s out of range", what);
        return -1;
    }
    return (int)x;
}

/* Read a Portes/Plakoto position into w (and its opponent's counts); -1 with an exception set. */
static int read_tavli(PyObject *position, TavliWalk *w, int *opp_off, int *opp_bar) {
    if (!PyObject_TypeCheck(position, tavli_position_type)) {
        PyErr_SetString(PyExc_TypeError, "expected a Portes or Plakoto TavliPosition");
        return -1;
    }
    PyObject *game = get_slot(position, o_game);
    if (game == NULL || !PyUnicode_Check(game)) {
        PyErr_SetString(PyExc_ValueError, "TavliPosition.game must be a string");
        return -1;
    }
    if (PyUnicode_CompareWithASCIIString(game, "plakoto") == 0) {
        w->plakoto = 1;
    } else if (PyUnicode_CompareWithASCIIString(game, "portes") == 0) {
        w->plakoto = 0;
    } else {
        PyErr_SetString(PyExc_ValueError, "TavliPosition.game must be \"portes\" or \"plakoto\"");
        return -1;
    }
    if (read_position(position, w->board, &w->off, opp_off) < 0) return -1;
    PyObject *pins = get_slot(position, o_pins);
    if (pins == NULL || !PyTuple_Check(pins) || PyTuple_GET_SIZE(pins) != POINTS) {
        PyErr_SetString(PyExc_TypeError, "position.pins must be a tuple of 24 ints");
        return -1;
    }
    int mine = 0;
    for (int i = 0; i < POINTS; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(pins, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        if (v < -1 || v > 1 || (v && !w->plakoto)) {
            PyErr_SetString(PyExc_ValueError, "a pin is -1, 0 or 1, and only in Plakoto");
            return -1;
        }
        w->pins[i] = (int)v;
        mine += (w->board[i] > 0 ? w->board[i] : 0) + (v == 1);
    }
    w->bar = small_slot(position, o_me_bar, 0, w->plakoto ? 0 : CHECKERS, "me_bar");
    if (w->bar < 0) return -1;
    *opp_bar = small_slot(position, o_opp_bar, 0, w->plakoto ? 0 : CHECKERS, "opp_bar");
    if (*opp_bar < 0) return -1;
    if (mine + w->bar + w->off != CHECKERS) {
        PyErr_SetString(PyExc_ValueError, "the mover does not have 15 checkers");
        return -1;
    }
    return 0;
}

static PyObject *make_tavli_play(PyObject *start, PyObject *dice, PyObject *steps, PyObject *result, PyObject *rule) {
    PyObject *play = tavli_play_type->tp_alloc(tavli_play_type, 0);
    if (play == NULL) return NULL;
    put_slot(play, o_start, start);
    put_slot(play, o_dice, dice);
    put_slot(play, o_steps, steps);
    put_slot(play, o_result, result);
    put_slot(play, o_rules, Py_None);
    put_slot(play, o_rule, rule);
    put_slot(play, o_hits, Py_None); /* TavliPlay.steps / .hits order the steps on first read */
    return play;
}

/* A tuple of 24 small ints. It holds no container, so the cycle collector need not track it (the
 * collector would untrack it at its first pass anyway); fewer tracked objects, fewer collections. */
static PyObject *int_tuple(const int *values) {
    PyObject *tuple = PyTuple_New(POINTS);
    if (tuple == NULL) return NULL;
    for (int i = 0; i < POINTS; i++) {
        PyObject *v = small_ints[values[i] + CHECKERS];
        Py_INCREF(v);
        PyTuple_SET_ITEM(tuple, i, v);
    }
    PyObject_GC_UnTrack(tuple);
    return tuple;
}

/* The position an end leaves (TavliPosition._make of PortesSteps/PlakotoSteps.position). */
static PyObject *make_tavli_position(const End *e, const TavliWalk *start, PyObject *start_obj, int start_opp_bar) {
    int board[POINTS], pins[POINTS], bar, opp_bar, off;
    tavli_decode(e, start, start_opp_bar, board, pins, &bar, &opp_bar, &off);
    PyObject *pos = tavli_position_type->tp_alloc(tavli_position_type, 0);
    if (pos == NULL) return NULL;
    PyObject *board_t = int_tuple(board);
    /* Portes has no pins, and most Plakoto plays pin or free nothing: share the start's (equal) tuple */
    int same_pins = !start->plakoto || memcmp(pins, start->pins, sizeof(pins)) == 0;
    PyObject *pins_t = same_pins ? get_slot(start_obj, o_pins) : int_tuple(pins);
    if (board_t == NULL || pins_t == NULL) {
        Py_XDECREF(board_t);
        Py_DECREF(pos);
        return NULL;
    }
    if (same_pins) Py_INCREF(pins_t);
    *(PyObject **)((char *)pos + o_board) = board_t; /* steal the references */
    *(PyObject **)((char *)pos + o_pins) = pins_t;
    put_slot(pos, o_me_off, small_ints[off + CHECKERS]);
    put_slot(pos, o_opp_off, get_slot(start_obj, o_opp_off));
    put_slot(pos, o_game, get_slot(start_obj, o_game));
    put_slot(pos, o_me_bar, small_ints[bar + CHECKERS]);
    put_slot(pos, o_opp_bar, small_ints[opp_bar + CHECKERS]);
    return pos;
}

static PyObject *tavli_generate(PyObject *position, PyObject *dice, int a, int b);

/* [the pass]: the one play when nothing moves (or the game is over). */
static PyObject *tavli_pass_list(PyObject *position, PyObject *dice, PyObject *rule) {
    PyObject *passing = make_tavli_play(position, dice, empty_tuple, position, rule);
    if (passing == NULL) return NULL;
    PyObject *one = PyList_New(1);
    if (one == NULL) {
        Py_DECREF(passing);
        return NULL;
    }
    PyList_SET_ITEM(one, 0, passing);
    return one;
}

/* tavli_legal_plays(position, dice) -> list[TavliPlay], as fevga.variants.tavli.tavli_legal_plays. */
static PyObject *core_tavli_legal_plays(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "tavli_legal_plays(position, dice)");
        return NULL;
    }
    if (tavli_not_ready()) return NULL;
    int a, b;
    PyObject *dice = checked_dice(args[1], &a, &b);
    if (dice == NULL) return NULL;
    PyObject *plays = tavli_generate(args[0], dice, a, b);
    Py_DECREF(dice);
    return plays;
}

/* The ends of the last tavli_search that are legal plays, copied out of the shared tables into a
 * malloc'd *chosen (the caller frees it, even for 0): the most steps (rule 6), then the higher die
 * when only one step can be played. Returns how many (0: the pass), or -1 out of memory. */
static int tavli_choose(int a, int b, End **chosen) {
    int best = 0, n_allowed = 0;
    *chosen = NULL;
    int *allowed = (int *)malloc(sizeof(int) * (size_t)(ends_len ? ends_len : 1));
    if (allowed == NULL) return -1;
    for (int k = 0; k < ends_len; k++) {
        int n = ends[k].nsteps;
        if (n > best) {
            best = n;
            n_allowed = 0;
        }
        if (n == best) allowed[n_allowed++] = k;
    }
    if (best == 1 && a != b) {
        int high = 1 << (a > b ? a : b), j = 0;
        for (int k = 0; k < n_allowed; k++)
            if (ends[allowed[k]].mask & high) allowed[j++] = allowed[k];
        if (j) n_allowed = j;
    }
    /* Copied out before any object is made (see generate()): making one may run Python code. */
    *chosen = (End *)malloc(sizeof(End) * (size_t)(n_allowed > 0 ? n_allowed : 1));
    if (*chosen == NULL) {
        free(allowed);
        return -1;
    }
    for (int k = 0; k < n_allowed; k++) (*chosen)[k] = ends[allowed[k]];
    free(allowed);
    return n_allowed;
}

static PyObject *tavli_generate(PyObject *position, PyObject *dice, int a, int b) {
    TavliWalk w, start;
    int opp_off, opp_bar;
    if (read_tavli(position, &w, &opp_off, &opp_bar) < 0) return NULL;
    PyObject *rule = w.plakoto ? plakoto_rule : portes_rule;
    if (w.off >= CHECKERS || opp_off >= CHECKERS) return tavli_pass_list(position, dice, rule);
    start = w;
    if (tavli_search(&w, a, b) < 0) return PyErr_NoMemory();

    End *chosen;
    int n_allowed = tavli_choose(a, b, &chosen);
    if (n_allowed < 0) return PyErr_NoMemory();
    if (n_allowed == 0) {
        free(chosen);
        return tavli_pass_list(position, dice, rule);
    }
    PyObject *list = PyList_New(n_allowed);
    if (list == NULL) goto fail;
    for (int k = 0; k < n_allowed; k++) {
        PyObject *result = make_tavli_position(&chosen[k], &start, position, opp_bar);
        if (result == NULL) goto fail;
        PyObject *steps = steps_tuple(&chosen[k]);
        if (steps == NULL) {
            Py_DECREF(result);
            goto fail;
        }
        PyObject_GC_UnTrack(steps); /* a tuple of (int, int) tuples, as int_tuple */
        PyObject *play = make_tavli_play(position, dice, steps, result, rule);
        Py_DECREF(steps);
        Py_DECREF(result);
        if (play == NULL) goto fail;
        PyList_SET_ITEM(list, k, play);
    }
    free(chosen);
    return list;
fail:
    free(chosen);
    Py_XDECREF(list);
    return NULL;
}
