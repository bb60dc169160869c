/*
 * _twocore.c: the C simulation core of the two-handed game.
 *
 * A C twin of one two-handed hand (twohanded.py, docs/rules.md §4) from any position
 * of it, played out by the `standard` policy of players/two/levels.py
 * (docs/two-handed.md "Computer players"). The Python code is the reference:
 * tests/test_twocore.py checks that every rollout here ends exactly where the
 * Python one does. Use it through pinochlekit.players.two.core, never directly.
 *
 * Sections:
 *   1. cards, the melds of each trump     4. the standard policy
 *   2. rules and positions                5. a rollout
 *   3. playing, melding, drawing          6. the Python functions
 *
 * The policy's float arithmetic is Python's (IEEE doubles, the same operations
 * in the same order); setup.py compiles this file with -ffp-contract=off so
 * that no multiply-add is fused.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "pinochle.h"

/* ===== 1. Cards and melds (docs/rules.md §1 Deck, §4; twohanded.combinations) ====
 * Kinds and masks are pinochle.h's. */

/* Action codes: 0..23 play that card, 24 + i lay meld i of the trump's table,
 * then the dix and "no meld". */
#define ACT_MELD 24
#define N_COMBOS 10
#define ACT_DIX (ACT_MELD + N_COMBOS)
#define ACT_NO_MELD (ACT_DIX + 1)

/* Meld names, in the order of the rules' value table (twocore.py). */
enum { RUN, ROYAL, COMMON, ACES, KINGS, QUEENS, JACKS, PINOCHLE, N_NAMES };
/* players/two/levels.py _MELD_POINTS: the policy's own (unscaled) meld points. */
static const int POLICY_POINTS[N_NAMES] = {150, 40, 20, 100, 80, 60, 40, 40};

typedef struct {
    int name, bit, n;
    int cards[5];
    char text[32]; /* str(LayMeld(cards)): the policy's tie-break */
} Combo;

static Combo COMBOS[4][N_COMBOS];
/* For each trump and card: the combos holding the card, in table order. */
static int CARD_COMBOS[4][24][4];
static int CARD_N[4][24];

static void add_combo(int trump, int *i, int name, int bit, int n, const int *cards)
{
    Combo *c = &COMBOS[trump][(*i)++];
    char *p = c->text;
    c->name = name;
    c->bit = bit;
    c->n = n;
    memcpy(p, "meld", 4);
    p += 4;
    for (int j = 0; j < n; j++) {
        c->cards[j] = cards[j];
        *p++ = ' ';
        *p++ = RANK_LETTERS[RANK_OF(cards[j])];
        *p++ = SUIT_LETTERS[SUIT_OF(cards[j])];
    }
    *p = '\0';
}

/* twohanded.combinations(trump): run, royal marriage, the common marriages by
 * suit, aces, kings, queens, jacks around, pinochle (class bits I 1, II 2, III 4). */
static void init_tables(void)
{
    static const int AROUND_NAMES[4] = {ACES, KINGS, QUEENS, JACKS}; /* of AROUND_RANKS */
    for (int trump = 0; trump < 4; trump++) {
        int i = 0, cards[5];
        for (int j = 0; j < 5; j++)
            cards[j] = KIND(trump, RUN_RANKS[j]);
        add_combo(trump, &i, RUN, 1, 5, cards);
        cards[0] = KIND(trump, KING);
        cards[1] = KIND(trump, QUEEN);
        add_combo(trump, &i, ROYAL, 1, 2, cards);
        for (int suit = 0; suit < 4; suit++) {
            if (suit == trump)
                continue;
            cards[0] = KIND(suit, KING);
            cards[1] = KIND(suit, QUEEN);
            add_combo(trump, &i, COMMON, 1, 2, cards);
        }
        for (int a = 0; a < 4; a++) {
            for (int suit = 0; suit < 4; suit++)
                cards[suit] = KIND(suit, AROUND_RANKS[a]);
            add_combo(trump, &i, AROUND_NAMES[a], 2, 4, cards);
        }
        cards[0] = QS;
        cards[1] = JD;
        add_combo(trump, &i, PINOCHLE, 4, 2, cards);
        for (int k = 0; k < 24; k++) {
            CARD_N[trump][k] = 0;
            for (int c = 0; c < N_COMBOS; c++)
                for (int j = 0; j < COMBOS[trump][c].n; j++)
                    if (COMBOS[trump][c].cards[j] == k)
                        CARD_COMBOS[trump][k][CARD_N[trump][k]++] = c;
        }
    }
}

/* ===== 2. Rules and positions ==============================================
 * The rules as twocore.py packs them (_rules_key): 24 trick points, the last
 * trick's 10, the dix, the eight meld values (enum order), meld_reuse == once,
 * the two must-beat flags of tricks.must_beat_flags. */

#define RULES_LEN (24 + 2 + N_NAMES + 3)

typedef struct {
    int points[24];
    int last, dix;
    int value[N_NAMES];
    int once;
    PlayRules play; /* only the two must-beat flags: a trick of two cards (follow_one) */
} Rules;

enum { EARLY, MELD, LATE };

typedef struct {
    signed char card, classes;
} Entry; /* a card laid on the table and the classes it served in */

typedef struct {
    unsigned char hand[2][24]; /* hidden cards */
    Entry table[2][48]; /* at most every card of the deck */
    int ntable[2];
    int stock[24], nstock, next;
    int turn_up; /* -1: taken */
    int trump, stage, to_act, dix_counted;
    int lead; /* -1: no card in the trick */
    int trick_points[2], meld_points[2];
    int done;
} State;

/* ===== 3. Playing, melding, drawing (TwoHandedGame._play, _lay, _dix, _draw) */

static void holding(const State *s, int seat, int out[24])
{
    for (int k = 0; k < 24; k++)
        out[k] = s->hand[seat][k];
    for (int i = 0; i < s->ntable[seat]; i++)
        out[(int)s->table[seat][i].card]++;
}

static Mask kinds_of(const int counts[24])
{
    Mask m = 0;
    for (int k = 0; k < 24; k++)
        if (counts[k])
            m |= BIT(k);
    return m;
}

/* _play_mask: docs/rules.md §4, any card while the stock lasts; the play rules after. */
static Mask play_mask(const Rules *r, const State *s, const int hold[24])
{
    Mask kinds = kinds_of(hold);
    if (s->stage == EARLY || s->lead < 0)
        return kinds;
    return follow_one(&r->play, kinds, s->lead, s->trump); /* pinochle.h */
}

/* _available: table copies of `card` that may serve in class `bit`. */
static int table_free(const Rules *r, const State *s, int seat, int card, int bit)
{
    int n = 0;
    if (r->once)
        return 0; /* docs/rules.md §2 meld_reuse=once: a laid card never serves again */
    for (int i = 0; i < s->ntable[seat]; i++)
        if (s->table[seat][i].card == card && !(s->table[seat][i].classes & bit))
            n++;
    return n;
}

/* _meld_options: every card available for the class, one at least from the hand. */
static int meld_options(const Rules *r, const State *s, int seat, int out[N_COMBOS])
{
    int n = 0;
    for (int c = 0; c < N_COMBOS; c++) {
        const Combo *m = &COMBOS[s->trump][c];
        int ok = 1, from_hand = 0;
        for (int j = 0; j < m->n && ok; j++) {
            int h = s->hand[seat][m->cards[j]];
            ok = h || table_free(r, s, seat, m->cards[j], m->bit);
            from_hand |= h > 0;
        }
        if (ok && from_hand)
            out[n++] = c;
    }
    return n;
}

static int can_dix(const State *s, int seat)
{
    return !s->dix_counted && s->hand[seat][KIND(s->trump, NINE)] > 0;
}

static int draw(State *s, int winner)
{
    int seats[2] = {winner, 1 - winner};
    for (int i = 0; i < 2; i++) {
        if (s->next < s->nstock) {
            s->hand[seats[i]][s->stock[s->next++]]++;
        } else {
            if (s->turn_up < 0)
                return -1;
            s->hand[seats[i]][s->turn_up]++; /* docs/rules.md §4: the turned-up card last */
            s->turn_up = -1;
        }
    }
    s->dix_counted = 0;
    s->to_act = winner;
    if (s->turn_up < 0) {
        s->stage = LATE; /* the melded cards go back to the hands */
        for (int seat = 0; seat < 2; seat++) {
            for (int i = 0; i < s->ntable[seat]; i++)
                s->hand[seat][(int)s->table[seat][i].card]++;
            s->ntable[seat] = 0;
        }
    } else {
        s->stage = EARLY;
    }
    return 0;
}

static void lay(const Rules *r, State *s, int seat, int c)
{
    const Combo *m = &COMBOS[s->trump][c];
    Entry *side = s->table[seat];
    int from_table[5], all = 1;
    for (int j = 0; j < m->n; j++) {
        from_table[j] = table_free(r, s, seat, m->cards[j], m->bit) > 0;
        all &= from_table[j];
    }
    if (all) { /* docs/rules.md §4: at least one card from the hand */
        for (int j = 0; j < m->n; j++)
            if (s->hand[seat][m->cards[j]]) {
                from_table[j] = 0;
                break;
            }
    }
    for (int j = 0; j < m->n; j++) {
        int card = m->cards[j];
        if (from_table[j]) {
            for (int i = 0; i < s->ntable[seat]; i++)
                if (side[i].card == card && !(side[i].classes & m->bit)) {
                    side[i].classes = (signed char)(side[i].classes | m->bit);
                    break;
                }
        } else {
            s->hand[seat][card]--;
            side[s->ntable[seat]].card = (signed char)card;
            side[s->ntable[seat]++].classes = (signed char)m->bit;
        }
    }
    s->meld_points[seat] += r->value[m->name];
}

/* docs/rules.md §4: the dix is exchanged for the turned-up card while it is there and
 * is not itself a nine of trump, else shown (laid on the table). */
static void dix(const Rules *r, State *s, int seat)
{
    int nine = KIND(s->trump, NINE);
    s->hand[seat][nine]--;
    if (s->turn_up >= 0 && s->turn_up != nine) {
        s->hand[seat][s->turn_up]++;
        s->turn_up = nine;
    } else {
        s->table[seat][s->ntable[seat]].card = (signed char)nine;
        s->table[seat][s->ntable[seat]++].classes = 1;
    }
    s->meld_points[seat] += r->dix;
    s->dix_counted = 1;
}

static void play(const Rules *r, State *s, int seat, int card)
{
    Entry *side = s->table[seat];
    int best = -1, best_bits = -1;
    for (int i = 0; i < s->ntable[seat]; i++) {
        /* a card with a copy on the table is played from it: the copy that has
         * served in the most classes, the first laid of those (docs/two-handed.md) */
        int bits = popcount((unsigned)side[i].classes);
        if (side[i].card == card && bits > best_bits) {
            best = i;
            best_bits = bits;
        }
    }
    if (best >= 0) {
        memmove(side + best, side + best + 1,
                sizeof(Entry) * (size_t)(s->ntable[seat] - best - 1));
        s->ntable[seat]--;
    } else {
        s->hand[seat][card]--;
    }
    if (s->lead < 0) {
        s->lead = card;
        s->to_act = 1 - seat;
        return;
    }
    int lead = s->lead;
    int winner = beats(lead, card, s->trump) ? seat : 1 - seat;
    int points = r->points[lead] + r->points[card], last = 0;
    if (s->stage == LATE) {
        last = 1;
        for (int k = 0; k < 24; k++)
            if (s->hand[winner][k])
                last = 0;
    }
    if (last)
        points += r->last; /* docs/rules.md §4: last trick 10 */
    s->trick_points[winner] += points;
    s->lead = -1;
    s->to_act = winner;
    if (s->stage == EARLY)
        s->stage = MELD;
    else if (last)
        s->done = 1;
}

/* Apply an action code for the seat to act (checked first if `check`: the
 * policy's own actions are legal by construction); -1 if it is not legal. */
static int apply(const Rules *r, State *s, int action, int check)
{
    int seat = s->to_act, hold[24];
    if (s->done || seat < 0 || seat > 1)
        return -1;
    if (action >= 0 && action < 24) {
        if (check) {
            if (s->stage == MELD)
                return -1;
            holding(s, seat, hold);
            if (!(play_mask(r, s, hold) & BIT(action)))
                return -1;
        }
        play(r, s, seat, action);
        return 0;
    }
    if (s->stage != MELD)
        return -1;
    if (action == ACT_DIX) {
        if (!can_dix(s, seat))
            return -1;
        dix(r, s, seat);
        return 0;
    }
    if (action == ACT_NO_MELD)
        return draw(s, seat);
    if (action >= ACT_MELD && action < ACT_DIX) {
        if (check) {
            int options[N_COMBOS], n = meld_options(r, s, seat, options), ok = 0;
            for (int i = 0; i < n; i++)
                ok |= options[i] == action - ACT_MELD;
            if (!ok)
                return -1;
        }
        lay(r, s, seat, action - ACT_MELD);
        return draw(s, seat); /* one meld per won trick, then the draw */
    }
    return -1;
}

/* ===== 4. The standard policy (players/two/levels.py standard_action) ======== */

typedef struct {
    int seat, trump, stage, lead, stock_size;
    int hold[24], classes[24], opponent[24];
    const int *points;
} Seen;

static void seen_of(const Rules *r, const State *s, Seen *v)
{
    int seat = s->to_act;
    v->seat = seat;
    v->trump = s->trump;
    v->stage = s->stage;
    v->lead = s->lead;
    v->stock_size = s->nstock - s->next + (s->turn_up >= 0);
    v->points = r->points;
    holding(s, seat, v->hold);
    memset(v->classes, 0, sizeof v->classes);
    for (int i = 0; i < s->ntable[seat]; i++)
        v->classes[(int)s->table[seat][i].card] |= s->table[seat][i].classes;
    if (s->stage == LATE)
        holding(s, 1 - seat, v->opponent);
}

static const int WORTH_BY_LEN[6] = {0, 0, 14, 0, 30, 60}; /* _MELD_WORTH */

static double keep_value(const Seen *v, int card)
{
    double value = (double)v->points[card];
    if (card / 6 == v->trump)
        value += 6 + card % 6;
    if (v->stage == LATE)
        return value;
    for (int i = 0; i < CARD_N[v->trump][card]; i++) {
        const Combo *m = &COMBOS[v->trump][CARD_COMBOS[v->trump][card][i]];
        if (v->classes[card] & m->bit)
            continue;
        int held = 0;
        for (int j = 0; j < m->n; j++)
            held += v->hold[m->cards[j]] > 0;
        value += (double)(WORTH_BY_LEN[m->n] * held * held) / (double)(m->n * m->n);
    }
    return value;
}

static int cheapest(const Seen *v, Mask cards)
{
    int best = -1;
    double best_value = 0.0;
    for (int k = 0; k < 24; k++) {
        if (!(cards & BIT(k)))
            continue;
        double value = keep_value(v, k);
        if (best < 0 || value < best_value) {
            best = k;
            best_value = value;
        }
    }
    return best;
}

static int best_meld_now(const Seen *v)
{
    int best = 0;
    for (int c = 0; c < N_COMBOS; c++) {
        const Combo *m = &COMBOS[v->trump][c];
        int all_held = 1, all_used = 1;
        for (int j = 0; j < m->n; j++) {
            all_held &= v->hold[m->cards[j]] > 0;
            all_used &= (v->classes[m->cards[j]] & m->bit) != 0;
        }
        if (all_held && !all_used && POLICY_POINTS[m->name] > best)
            best = POLICY_POINTS[m->name];
    }
    return best;
}

static int meld_choice(const Rules *r, const State *s, const Seen *v)
{
    int options[N_COMBOS], n = meld_options(r, s, v->seat, options);
    int dix_ok = can_dix(s, v->seat);
    if (n + dix_ok == 0)
        return ACT_NO_MELD;
    if (dix_ok)
        return ACT_DIX;
    static const int OTHERS[3] = {ACE, TEN, JACK};
    int others = 0;
    for (int i = 0; i < 3; i++)
        others += v->hold[KIND(v->trump, OTHERS[i])] > 0;
    int in_sight = others >= 2 && v->stock_size >= 6;
    int best = -1, best_worth = 0;
    for (int i = 0; i < n; i++) {
        const Combo *m = &COMBOS[v->trump][options[i]];
        int worth = POLICY_POINTS[m->name] - (m->name == ROYAL && in_sight ? 100 : 0);
        if (best < 0 || worth > best_worth ||
            (worth == best_worth && strcmp(m->text, COMBOS[v->trump][best].text) > 0)) {
            best = options[i];
            best_worth = worth;
        }
    }
    return best_worth > 0 ? ACT_MELD + best : ACT_NO_MELD;
}

static int sure_winner(const Seen *v, int card)
{
    int suit = card / 6, holds_suit = 0, holds_trump = 0;
    for (int k = card + 1; k < suit * 6 + 6; k++)
        if (v->opponent[k])
            return 0;
    if (suit == v->trump)
        return 1;
    for (int k = 0; k < 6; k++) {
        holds_suit |= v->opponent[suit * 6 + k] > 0;
        holds_trump |= v->opponent[v->trump * 6 + k] > 0;
    }
    return holds_suit || !holds_trump;
}

/* The action the standard policy takes for the seat to act; -1 if it has none. */
static int standard(const Rules *r, const State *s)
{
    Seen v;
    seen_of(r, s, &v);
    if (s->stage == MELD)
        return meld_choice(r, s, &v);
    Mask cards = play_mask(r, s, v.hold);
    if (!cards)
        return -1;
    if (!(cards & (cards - 1)))
        return low_bit(cards);
    const int *p = v.points;
    int lead = v.lead, trump = v.trump;
    if (lead < 0) {
        if (v.stage == LATE) {
            int best = -1;
            for (int k = 0; k < 24; k++)
                if (cards & BIT(k) && sure_winner(&v, k) && (best < 0 || p[k] > p[best]))
                    best = k;
            if (best >= 0)
                return best;
            Mask plain = cards & ~SUIT_MASK(trump);
            return cheapest(&v, plain ? plain : cards);
        }
        return cheapest(&v, cards);
    }
    Mask winning = 0;
    for (int k = 0; k < 24; k++)
        if (cards & BIT(k) && beats(lead, k, trump))
            winning |= BIT(k);
    Mask losing = cards & ~winning;
    if (v.stage == LATE) {
        int best = -1;
        if (winning) { /* the lowest winning rank, the lowest kind of it */
            for (int k = 0; k < 24; k++)
                if (winning & BIT(k) && (best < 0 || k % 6 < best % 6))
                    best = k;
            return best;
        }
        for (int k = 0; k < 24; k++) /* fewest points, then lowest rank, lowest kind */
            if (losing & BIT(k) &&
                (best < 0 || p[k] < p[best] || (p[k] == p[best] && k % 6 < best % 6)))
                best = k;
        return best;
    }
    if (!winning)
        return cheapest(&v, losing);
    int take = cheapest(&v, winning);
    double score_take = (double)(p[lead] + p[take]) + 0.8 * (double)best_meld_now(&v) -
                        (keep_value(&v, take) - (double)p[take]);
    if (!losing)
        return take;
    int give = cheapest(&v, losing);
    double score_give = (double)(-(p[lead] + p[give])) - (keep_value(&v, give) - (double)p[give]);
    return score_take > score_give ? take : give;
}

/* ===== 5. A rollout (players/two/levels.py rollout) ========================== */

#define MAX_STEPS 256 /* far more actions than one hand can take */

/* Play the hand out; `seat`'s meld and tricks minus the opponent's in *value.
 * Each action is stored in trace (if given); -1 on a broken position. */
static int run(const Rules *r, State *s, int seat, int *value, int *trace, int *ntrace)
{
    for (int step = 0; !s->done; step++) {
        int action = standard(r, s);
        if (step >= MAX_STEPS || action < 0 || apply(r, s, action, 0) < 0)
            return -1;
        if (trace)
            trace[(*ntrace)++] = action;
    }
    *value = s->meld_points[seat] + s->trick_points[seat] - s->meld_points[1 - seat] -
             s->trick_points[1 - seat];
    return 0;
}

/* ===== 6. The Python functions ============================================= */

static int read_ints(PyObject *seq, int *out, Py_ssize_t min, Py_ssize_t max,
                     Py_ssize_t *len, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n < min || n > max) {
        PyErr_Format(PyExc_ValueError, "%s: %zd numbers, expected %zd to %zd", what, n, min,
                     max);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (v < -100000 || v > 100000) {
            PyErr_Format(PyExc_ValueError, "%s: number %zd out of range", what, i);
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    if (len)
        *len = n;
    Py_DECREF(fast);
    return 0;
}

static int bad(const char *why)
{
    PyErr_Format(PyExc_ValueError, "not a two-handed position: %s", why);
    return -1;
}

static int read_rules(PyObject *obj, Rules *r)
{
    int v[RULES_LEN];
    if (read_ints(obj, v, RULES_LEN, RULES_LEN, NULL, "rules") < 0)
        return -1;
    memcpy(r->points, v, sizeof r->points);
    r->last = v[24];
    r->dix = v[25];
    memcpy(r->value, v + 26, sizeof r->value);
    r->once = v[26 + N_NAMES];
    /* docs/rules.md §4: two cards a trick, so only the must-beat options apply */
    r->play = (PlayRules){.beat_follow = v[27 + N_NAMES], .beat_trump_led = v[28 + N_NAMES]};
    return 0;
}

/* The position as twocore.py packs it (_position): seat, trump, stage, to act,
 * dix counted, turned-up card (-1), lead (-1), trick points and meld points of
 * both seats, the seat's 24 hidden counts, then each seat's table: its length
 * and (card, classes) pairs. The opponent's hidden cards and the stock come with
 * each deal. */
#define STATE_HEAD 11

static int read_state(PyObject *obj, State *s, int *seat)
{
    int v[STATE_HEAD + 24 + 2 + 4 * 24];
    Py_ssize_t n;
    if (read_ints(obj, v, STATE_HEAD + 26, (Py_ssize_t)(sizeof v / sizeof v[0]), &n,
                  "position") < 0)
        return -1;
    memset(s, 0, sizeof *s);
    *seat = v[0];
    s->trump = v[1];
    s->stage = v[2];
    s->to_act = v[3];
    s->dix_counted = v[4] != 0;
    s->turn_up = v[5];
    s->lead = v[6];
    s->trick_points[0] = v[7];
    s->trick_points[1] = v[8];
    s->meld_points[0] = v[9];
    s->meld_points[1] = v[10];
    if (*seat < 0 || *seat > 1 || s->to_act < 0 || s->to_act > 1)
        return bad("seats are 0 and 1");
    if (s->trump < 0 || s->trump > 3 || s->stage < EARLY || s->stage > LATE)
        return bad("trump or stage out of range");
    if (s->turn_up < -1 || s->turn_up > 23 || s->lead < -1 || s->lead > 23)
        return bad("a card out of range");
    if ((s->stage == LATE) != (s->turn_up < 0) || (s->stage == MELD && s->lead >= 0))
        return bad("the stage does not fit the turned-up card or the trick");
    for (int k = 0; k < 24; k++) {
        if (v[STATE_HEAD + k] < 0 || v[STATE_HEAD + k] > 2)
            return bad("at most two cards of a kind");
        s->hand[*seat][k] = (unsigned char)v[STATE_HEAD + k];
    }
    Py_ssize_t i = STATE_HEAD + 24;
    for (int side = 0; side < 2; side++) {
        if (i >= n || v[i] < 0 || v[i] > 12 || i + 1 + 2 * v[i] > n)
            return bad("a table is a length and (card, classes) pairs");
        s->ntable[side] = v[i];
        for (int j = 0; j < v[i]; j++) {
            int card = v[i + 1 + 2 * j], classes = v[i + 2 + 2 * j];
            if (card < 0 || card > 23 || classes < 0 || classes > 7)
                return bad("a table card out of range");
            s->table[side][j].card = (signed char)card;
            s->table[side][j].classes = (signed char)classes;
        }
        i += 1 + 2 * v[i];
    }
    if (i != n)
        return bad("numbers left over after the tables");
    if (s->stage == LATE && (s->ntable[0] || s->ntable[1]))
        return bad("no cards lie on the table in the last tricks");
    return 0;
}

/* Fill in a deal: the opponent's hidden cards (two masks) and the stock. */
static int read_deal(PyObject *deal, State *s, int seat)
{
    unsigned long long once, twice;
    const char *stock;
    Py_ssize_t nstock;
    if (!PyArg_ParseTuple(deal, "KKy#", &once, &twice, &stock, &nstock))
        return -1;
    if (once >> 24 || twice & ~once)
        return bad("an opponent's hand is two masks of 24 kinds, the second within the first");
    if (nstock > 23 || (s->stage == LATE && nstock))
        return bad("the stock is too long");
    for (int k = 0; k < 24; k++)
        s->hand[1 - seat][k] = (unsigned char)((once >> k & 1) + (twice >> k & 1));
    for (Py_ssize_t j = 0; j < nstock; j++) {
        if ((unsigned char)stock[j] > 23)
            return bad("a stock card out of range");
        s->stock[j] = (unsigned char)stock[j];
    }
    s->nstock = (int)nstock;
    s->next = 0;
    for (int k = 0; k < 24; k++) {
        int total = s->hand[0][k] + s->hand[1][k] + (s->turn_up == k) + (s->lead == k);
        for (int side = 0; side < 2; side++)
            for (int j = 0; j < s->ntable[side]; j++)
                total += s->table[side][j].card == k;
        for (int j = 0; j < s->nstock; j++)
            total += s->stock[j] == k;
        if (total > 2)
            return bad("more than two cards of a kind");
    }
    return 0;
}

static PyObject *py_rollouts(PyObject *self, PyObject *args)
{
    PyObject *rules_obj, *state_obj, *deals;
    int action, seat;
    Rules r;
    State base;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOiO", &rules_obj, &state_obj, &action, &deals))
        return NULL;
    if (read_rules(rules_obj, &r) < 0 || read_state(state_obj, &base, &seat) < 0)
        return NULL;
    PyObject *fast = PySequence_Fast(deals, "deals must be a sequence");
    if (!fast)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject *out = PyList_New(n);
    if (!out) {
        Py_DECREF(fast);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        State s = base;
        int value;
        PyObject *item;
        if (read_deal(PySequence_Fast_GET_ITEM(fast, i), &s, seat) < 0)
            goto fail;
        if (apply(&r, &s, action, 1) < 0) {
            PyErr_Format(PyExc_ValueError, "action %d is not legal in this position", action);
            goto fail;
        }
        if (run(&r, &s, seat, &value, NULL, NULL) < 0) {
            bad("the hand cannot be played out");
            goto fail;
        }
        if (!(item = PyLong_FromLong(value)))
            goto fail;
        PyList_SET_ITEM(out, i, item);
    }
    Py_DECREF(fast);
    return out;
fail:
    Py_DECREF(fast);
    Py_DECREF(out);
    return NULL;
}

static PyObject *py_trace(PyObject *self, PyObject *args)
{
    PyObject *rules_obj, *state_obj, *deal;
    int action, seat, value, trace[MAX_STEPS], ntrace = 0;
    Rules r;
    State s;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOiO", &rules_obj, &state_obj, &action, &deal))
        return NULL;
    if (read_rules(rules_obj, &r) < 0 || read_state(state_obj, &s, &seat) < 0 ||
        read_deal(deal, &s, seat) < 0)
        return NULL;
    if (apply(&r, &s, action, 1) < 0)
        return PyErr_Format(PyExc_ValueError, "action %d is not legal in this position",
                            action);
    if (run(&r, &s, seat, &value, trace, &ntrace) < 0) {
        bad("the hand cannot be played out");
        return NULL;
    }
    PyObject *actions = PyList_New(ntrace);
    if (!actions)
        return NULL;
    for (int i = 0; i < ntrace; i++) {
        PyObject *item = PyLong_FromLong(trace[i]);
        if (!item) {
            Py_DECREF(actions);
            return NULL;
        }
        PyList_SET_ITEM(actions, i, item);
    }
    return Py_BuildValue("(iN)", value, actions);
}

static PyMethodDef METHODS[] = {
    {"rollouts", py_rollouts, METH_VARARGS,
     "rollouts(rules, position, action, deals) -> list[int]: for each deal (opponent's "
     "once mask, twice mask, stock bytes), the action then standard play to the end of "
     "the hand; the seat's meld and tricks minus the opponent's."},
    {"trace", py_trace, METH_VARARGS,
     "trace(rules, position, action, deal) -> (value, actions): one rollout and the "
     "action codes the standard policy took."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_twocore",
    "The two-handed simulation core; use pinochlekit.players.two.core.", -1, METHODS,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__twocore(void)
{
    init_tables();
    return PyModule_Create(&MODULE);
}
