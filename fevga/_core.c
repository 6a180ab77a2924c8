/* fevga._core: the compiled move generator (and network input encoder) of fevga.
 * Portes and Plakoto have their own generator in _tavli_walk.h (search) and _tavli_core.h (objects),
 * and their own network inputs in _tavli_encode.h.
 *
 * It computes exactly what fevga.movegen.legal_plays_reference computes (RULES.md rules 1-8, both
 * variants) in the same order, with the same step sequence per play, and builds the Play and
 * Position objects itself, because building them in Python costs more than the search.
 * Plain CPython C API. The search (_walk.h) runs without calling Python, so its static tables
 * are safe under the GIL; the chosen plays are copied out before any object is made.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

#define CHECKERS 15
#define POINTS 24
#define OFF_INDEX 24

/* ---- classes and slot offsets given by fevga.accel through init() --------------------------- */
static PyTypeObject *position_type = NULL;
static PyTypeObject *play_type = NULL;
static PyObject *empty_tuple = NULL;
static PyObject *check_dice = NULL;                      /* fevga.movegen.check_dice, for other dice */
static PyObject *s_unlock_point = NULL, *s_strict = NULL; /* interned attribute names of Rules */
static Py_ssize_t o_board, o_me_off, o_opp_off;          /* slot offsets in Position */
static Py_ssize_t o_start, o_dice, o_steps, o_result, o_rules;    /* slot offsets in Play */
static PyObject *step_pairs[25][26];                      /* (src, dst) tuples, made once */
static PyObject *small_ints[2 * CHECKERS + 1];            /* -15..15 */

#include "_walk.h"

/* ---- building Python objects ------------------------------------------------------------------ */
/* Store a new reference in a fresh object's slot (what object.__setattr__ does for a slot). */
static inline void put_slot(PyObject *obj, Py_ssize_t offset, PyObject *value) {
    Py_INCREF(value);
    *(PyObject **)((char *)obj + offset) = value;
}

static inline PyObject *get_slot(PyObject *obj, Py_ssize_t offset) { return *(PyObject **)((char *)obj + offset); }

static PyObject *make_position(const int *board, int me_off, PyObject *opp_off) {
    PyObject *tuple = PyTuple_New(POINTS);
    if (tuple == NULL) return NULL;
    for (int i = 0; i < POINTS; i++) {
        PyObject *v = small_ints[board[i] + CHECKERS];
        Py_INCREF(v);
        PyTuple_SET_ITEM(tuple, i, v);
    }
    PyObject *off = small_ints[me_off + CHECKERS];
    PyObject *pos = position_type->tp_alloc(position_type, 0);
    if (pos == NULL) {
        Py_DECREF(tuple);
        return NULL;
    }
    Py_INCREF(off);
    *(PyObject **)((char *)pos + o_board) = tuple; /* steals the references */
    *(PyObject **)((char *)pos + o_me_off) = off;
    put_slot(pos, o_opp_off, opp_off);
    return pos;
}

static PyObject *make_play(PyObject *start, PyObject *dice, PyObject *steps, PyObject *result, PyObject *rules) {
    PyObject *play = play_type->tp_alloc(play_type, 0);
    if (play == NULL) return NULL;
    put_slot(play, o_start, start);
    put_slot(play, o_dice, dice);
    put_slot(play, o_steps, steps);
    put_slot(play, o_result, result);
    put_slot(play, o_rules, rules); /* Play.steps puts the steps in canonical order on first read */
    return play;
}

static PyObject *steps_tuple(const End *e) {
    PyObject *steps = PyTuple_New(e->nsteps);
    if (steps == NULL) return NULL;
    for (int k = 0; k < e->nsteps; k++) {
        PyObject *pair = step_pairs[(int)e->steps[k][0]][(int)e->steps[k][1]];
        Py_INCREF(pair);
        PyTuple_SET_ITEM(steps, k, pair);
    }
    return steps;
}

static void decode_board(const End *e, const int *start, int *board) {
    for (int i = 0; i < POINTS; i++) {
        if (start[i] < 0) {
            board[i] = start[i];
        } else if (i < 16) {
            board[i] = (int)((e->lo >> (4 * i)) & 15);
        } else {
            board[i] = (int)((e->hi >> (4 * (i - 16))) & 15);
        }
    }
}

static int read_position(PyObject *position, int *board, int *me_off, int *opp_off) {
    if (!PyObject_TypeCheck(position, position_type)) {
        PyErr_SetString(PyExc_TypeError, "expected a fevga Position");
        return -1;
    }
    PyObject *b = get_slot(position, o_board);
    if (b == NULL) {
        PyErr_SetString(PyExc_ValueError, "uninitialised Position");
        return -1;
    }
    Py_INCREF(b);
    if (!PyTuple_Check(b) || PyTuple_GET_SIZE(b) != POINTS) {
        Py_DECREF(b);
        PyErr_SetString(PyExc_TypeError, "position.board must be a tuple of 24 ints");
        return -1;
    }
    for (int i = 0; i < POINTS; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(b, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(b);
            return -1;
        }
        if (v < -CHECKERS || v > CHECKERS) {
            Py_DECREF(b);
            PyErr_SetString(PyExc_ValueError, "a point holds at most 15 checkers");
            return -1;
        }
        board[i] = (int)v;
    }
    Py_DECREF(b);
    PyObject *m = get_slot(position, o_me_off);
    PyObject *o = get_slot(position, o_opp_off);
    if (m == NULL || o == NULL) {
        PyErr_SetString(PyExc_ValueError, "uninitialised Position");
        return -1;
    }
    *me_off = (int)PyLong_AsLong(m);
    *opp_off = (int)PyLong_AsLong(o);
    if (PyErr_Occurred()) return -1;
    if (*me_off < 0 || *me_off > CHECKERS || *opp_off < 0 || *opp_off > CHECKERS) {
        PyErr_SetString(PyExc_ValueError, "borne-off counts are 0..15");
        return -1;
    }
    return 0;
}

static PyObject *pass_list(PyObject *position, PyObject *dice, PyObject *rules) {
    PyObject *play = make_play(position, dice, empty_tuple, position, rules);
    if (play == NULL) return NULL;
    PyObject *list = PyList_New(1);
    if (list == NULL) {
        Py_DECREF(play);
        return NULL;
    }
    PyList_SET_ITEM(list, 0, play);
    return list;
}

/* Dice as an exact (a, b) tuple of ints 1..6: itself when it already is one, else what
 * fevga.movegen.check_dice makes of it (it raises DiceError for invalid dice). New reference. */
static PyObject *checked_dice(PyObject *dice, int *a, int *b) {
    if (PyTuple_CheckExact(dice) && PyTuple_GET_SIZE(dice) == 2 && PyLong_CheckExact(PyTuple_GET_ITEM(dice, 0)) &&
        PyLong_CheckExact(PyTuple_GET_ITEM(dice, 1))) {
        int overflow;
        long x = PyLong_AsLongAndOverflow(PyTuple_GET_ITEM(dice, 0), &overflow);
        long y = PyLong_AsLongAndOverflow(PyTuple_GET_ITEM(dice, 1), &overflow);
        if (x >= 1 && x <= 6 && y >= 1 && y <= 6) {
            *a = (int)x;
            *b = (int)y;
            Py_INCREF(dice);
            return dice;
        }
    }
    if (check_dice == NULL) { /* imported on first use: fevga.movegen imports this module */
        PyObject *movegen = PyImport_ImportModule("fevga.movegen");
        if (movegen == NULL) return NULL;
        check_dice = PyObject_GetAttrString(movegen, "check_dice");
        Py_DECREF(movegen);
        if (check_dice == NULL) return NULL;
    }
    PyObject *fixed = PyObject_CallOneArg(check_dice, dice);
    if (fixed == NULL) return NULL;
    if (!PyTuple_CheckExact(fixed) || PyTuple_GET_SIZE(fixed) != 2) {
        Py_DECREF(fixed);
        PyErr_SetString(PyExc_TypeError, "check_dice must return a pair");
        return NULL;
    }
    *a = (int)PyLong_AsLong(PyTuple_GET_ITEM(fixed, 0));
    *b = (int)PyLong_AsLong(PyTuple_GET_ITEM(fixed, 1));
    return fixed;
}

static PyObject *generate(PyObject *position, PyObject *dice, int a, int b, int unlock_point, int strict,
                          PyObject *rules);

/* legal_plays(position, dice, rules) -> list[Play], exactly as fevga.movegen.legal_plays_reference. */
static PyObject *core_legal_plays(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "legal_plays(position, dice, rules)");
        return NULL;
    }
    if (position_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "fevga._core.init() was not called");
        return NULL;
    }
    PyObject *unlock_obj = PyObject_GetAttr(args[2], s_unlock_point);
    if (unlock_obj == NULL) return NULL;
    long unlock_point = PyLong_AsLong(unlock_obj);
    Py_DECREF(unlock_obj);
    if (unlock_point == -1 && PyErr_Occurred()) return NULL;
    if (unlock_point < 1 || unlock_point > 24) {
        PyErr_SetString(PyExc_ValueError, "unlock_point must be 13 or 14");
        return NULL;
    }
    PyObject *strict_obj = PyObject_GetAttr(args[2], s_strict);
    if (strict_obj == NULL) return NULL;
    int strict = PyObject_IsTrue(strict_obj);
    Py_DECREF(strict_obj);
    if (strict < 0) return NULL;
    int a, b;
    PyObject *dice = checked_dice(args[1], &a, &b);
    if (dice == NULL) return NULL;
    PyObject *plays = generate(args[0], dice, a, b, (int)unlock_point, strict, args[2]);
    Py_DECREF(dice);
    return plays;
}

/* The legal plays of a roll, as ends of the walk (no Python objects): what legal_plays_reference
 * keeps, in its order. ``start`` is the signed board (mover positive). Sets *chosen to a malloc'd
 * array the caller frees and returns how many it holds (0: the turn passes), or -1 with MemoryError. */
static int choose_ends(const int *start, int me_off, int opp_off, int a, int b, int unlock_point, int strict,
                       End **chosen) {
    Walk w;
    *chosen = NULL;
    if (me_off >= CHECKERS || opp_off >= CHECKERS) return 0;
    memcpy(w.board, start, sizeof(w.board));
    w.unlock_index = unlock_point - 1;
    w.strict = strict;
    w.depth = 0;
    w.error = 0;
    memset(w.steps, 0, sizeof(w.steps));
    key_of(w.board, me_off, 0, &w.lo, &w.hi);
    if (table_reset() < 0) goto nomem;
    ends_len = 0;
    if (a == b) {
        int order[4] = {a, a, a, a};
        walk(&w, me_off, order, 4);
    } else {
        int ab[2] = {a, b}, ba[2] = {b, a};
        walk(&w, me_off, ab, 2);
        if (!w.error) walk(&w, me_off, ba, 2);
    }
    if (w.error) goto nomem;

    /* R1/R2 on the final position, then the most steps (rule 6). Reuse the table's value as a flag. */
    int best = 0, n_allowed = 0;
    int *allowed = (int *)malloc(sizeof(int) * (size_t)(ends_len ? ends_len : 1));
    if (allowed == NULL) goto nomem;
    int board[POINTS];
    for (int k = 0; k < ends_len; k++) {
        if (key_holds_six(ends[k].lo, ends[k].hi)) continue;
        int n = ends[k].nsteps;
        if (n > best) {
            best = n;
            n_allowed = 0;
            allowed[n_allowed++] = k;
        } else if (n == best) {
            allowed[n_allowed++] = k;
        }
    }
    if (n_allowed == 0) {
        free(allowed);
        return 0;
    }
    if (best == 1 && a != b) {
        int high = 1 << (a > b ? a : b), m = 0;
        for (int k = 0; k < n_allowed; k++)
            if (ends[allowed[k]].mask & high) m++;
        if (m) {
            int j = 0;
            for (int k = 0; k < n_allowed; k++)
                if (ends[allowed[k]].mask & high) allowed[j++] = allowed[k];
            n_allowed = j;
        }
    }
    /* R3: keep the plays that leave the opponent a move, if any does. */
    if (opponent_target_count(start, opp_off, unlock_point) <= best) {
        int j = 0;
        for (int k = 0; k < n_allowed; k++) {
            End *e = &ends[allowed[k]];
            int off = (int)((e->hi >> 32) & 15);
            decode_board(e, start, board);
            if (off >= CHECKERS || opponent_can_move(board, opp_off, unlock_point)) allowed[j++] = allowed[k];
        }
        if (j) n_allowed = j;
    }
    /* Copy the chosen ends out of the shared tables before any object is made: an allocation can
     * run a collection, and a finalizer (or another thread) could call legal_plays again. */
    *chosen = (End *)malloc(sizeof(End) * (size_t)n_allowed);
    if (*chosen == NULL) {
        free(allowed);
        goto nomem;
    }
    for (int k = 0; k < n_allowed; k++) (*chosen)[k] = ends[allowed[k]];
    free(allowed);
    return n_allowed;
nomem:
    PyErr_NoMemory();
    return -1;
}

static PyObject *generate(PyObject *position, PyObject *dice, int a, int b, int unlock_point, int strict,
                          PyObject *rules) {
    int start[POINTS], board[POINTS];
    int me_off, opp_off;
    End *chosen;
    if (read_position(position, start, &me_off, &opp_off) < 0) return NULL;
    int n_allowed = choose_ends(start, me_off, opp_off, a, b, unlock_point, strict, &chosen);
    if (n_allowed < 0) return NULL;
    if (n_allowed == 0) return pass_list(position, dice, rules);
    PyObject *list = PyList_New(n_allowed);
    PyObject *opp_obj = PyLong_FromLong(opp_off);
    if (list == NULL || opp_obj == NULL) goto fail;
    for (int k = 0; k < n_allowed; k++) {
        End *e = &chosen[k];
        decode_board(e, start, board);
        PyObject *result = make_position(board, (int)((e->hi >> 32) & 15), opp_obj);
        if (result == NULL) goto fail;
        PyObject *steps = steps_tuple(e);
        if (steps == NULL) {
            Py_DECREF(result);
            goto fail;
        }
        PyObject *play = make_play(position, dice, steps, result, rules);
        Py_DECREF(steps);
        Py_DECREF(result);
        if (play == NULL) goto fail;
        PyList_SET_ITEM(list, k, play);
    }
    free(chosen);
    Py_DECREF(opp_obj);
    return list;
fail:
    free(chosen);
    Py_XDECREF(list);
    Py_XDECREF(opp_obj);
    return NULL;
}

/* The byte offset of a slot, from its member descriptor on the class. */
static int slot_offset(PyObject *cls, const char *name, Py_ssize_t *offset) {
    PyObject *descr = PyObject_GetAttrString(cls, name);
    if (descr == NULL) return -1;
    if (!PyObject_TypeCheck(descr, &PyMemberDescr_Type)) {
        Py_DECREF(descr);
        PyErr_Format(PyExc_TypeError, "%s is not a slot", name);
        return -1;
    }
    PyMemberDef *member = ((PyMemberDescrObject *)descr)->d_member;
    if (member->type != T_OBJECT_EX) {
        Py_DECREF(descr);
        PyErr_Format(PyExc_TypeError, "%s is not an object slot", name);
        return -1;
    }
    *offset = member->offset;
    Py_DECREF(descr);
    return 0;
}

/* init(Position, Play): remember the classes and their slots. */
static PyObject *core_init(PyObject *self, PyObject *args) {
    PyObject *pos_cls, *play_cls;
    if (!PyArg_ParseTuple(args, "O!O!", &PyType_Type, &pos_cls, &PyType_Type, &play_cls)) return NULL;
    if (slot_offset(pos_cls, "board", &o_board) < 0 || slot_offset(pos_cls, "me_off", &o_me_off) < 0 ||
        slot_offset(pos_cls, "opp_off", &o_opp_off) < 0 || slot_offset(play_cls, "start", &o_start) < 0 ||
        slot_offset(play_cls, "dice", &o_dice) < 0 || slot_offset(play_cls, "_steps", &o_steps) < 0 ||
        slot_offset(play_cls, "_rules", &o_rules) < 0 ||
        slot_offset(play_cls, "result", &o_result) < 0)
        return NULL;
    for (int src = 1; src <= 24; src++) {
        for (int dst = src + 1; dst <= 25; dst++) {
            if (step_pairs[src][dst] == NULL) {
                step_pairs[src][dst] = Py_BuildValue("(ii)", src, dst);
                if (step_pairs[src][dst] == NULL) return NULL;
            }
        }
    }
    Py_INCREF(pos_cls);
    Py_INCREF(play_cls);
    Py_XSETREF(position_type, (PyTypeObject *)pos_cls);
    Py_XSETREF(play_type, (PyTypeObject *)play_cls);
    Py_RETURN_NONE;
}

#include "_encode.h"
#include "_replies.h"
#include "_answer.h"
#include "_tavli_core.h"
#include "_tavli_encode.h"
#include "_tavli_replies.h"

static PyMethodDef core_methods[] = {
    {"init", core_init, METH_VARARGS, "init(Position, Play): the classes legal_plays builds."},
    {"legal_plays", (PyCFunction)(void (*)(void))core_legal_plays, METH_FASTCALL,
     "legal_plays(position, dice, rules) -> list[Play], as fevga.movegen.legal_plays_reference."},
    {"init_tavli", core_init_tavli, METH_VARARGS,
     "init_tavli(TavliPosition, TavliPlay, PortesSteps, PlakotoSteps): the classes tavli_legal_plays builds."},
    {"tavli_legal_plays", (PyCFunction)(void (*)(void))core_tavli_legal_plays, METH_FASTCALL,
     "tavli_legal_plays(position, dice) -> list[TavliPlay], as fevga.variants.tavli.tavli_legal_plays."},
    {"encode_tavli", core_encode_tavli, METH_VARARGS,
     "encode_tavli(positions, flip, out): Portes or Plakoto network inputs, as encode does for Fevga."},
    {"encode", core_encode, METH_VARARGS,
     "encode(positions, flip, out): float64 or float32 network inputs into a writable buffer (flip: the other's view)."},
    {"reply_inputs", core_reply_inputs, METH_VARARGS,
     "reply_inputs(positions, unlock_point, strict, extended, out=None) -> (bytes | int, bytes): float32 inputs "
     "of every legal play's result for each of the 21 rolls (into out: their count), and int32 row counts."},
    {"tavli_reply_inputs", core_tavli_reply_inputs, METH_VARARGS,
     "tavli_reply_inputs(positions, out=None) -> (bytes | int, bytes, bytes): float32 inputs (into out: their "
     "count) and float64 game-end points of every legal play's result of Portes or Plakoto positions for "
     "each of the 21 rolls, and int32 row counts."},
    {"tavli_outcomes", core_tavli_outcomes, METH_VARARGS,
     "tavli_outcomes(positions, out): the points each Portes or Plakoto play result has won (NaN: not over)."},
    {"plays_answer", core_plays_answer, METH_O,
     "plays_answer(request) -> str | None: the answer line of `python -m fevga plays`; None: not plain Fevga input."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "fevga._core", "fevga's compiled move generators and input encoder.", -1, core_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    empty_tuple = PyTuple_New(0);
    s_unlock_point = PyUnicode_InternFromString("unlock_point");
    s_strict = PyUnicode_InternFromString("strict_start_quarter");
    if (empty_tuple == NULL || s_unlock_point == NULL || s_strict == NULL || answer_init() < 0) return NULL;
    for (int v = -CHECKERS; v <= CHECKERS; v++) {
        small_ints[v + CHECKERS] = PyLong_FromLong(v);
        if (small_ints[v + CHECKERS] == NULL) return NULL;
    }
    return PyModule_Create(&core_module);
}
