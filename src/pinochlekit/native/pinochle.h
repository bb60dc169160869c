/*
 * pinochle.h: what every C core of pinochlekit shares, each rule written once.
 *
 * The card numbering (the engine's cards.py), the suit masks and rank tables, the
 * trick winner and the legal plays of docs/rules.md §1 Play with the §2 options,
 * the per-class meld count of §1.7, and the bit helpers. Everything is a constant
 * or a static inline function, so each extension (_core.c, _table.c, _solver.c,
 * _twosolver.c, _twocore.c, _doublecore.c) compiles its own copy with nothing to
 * link. The Python engine (engine/tricks.py, engine/meld.py) stays the reference;
 * the differential tests of each core check them against it.
 */
#ifndef PINOCHLEKIT_PINOCHLE_H
#define PINOCHLEKIT_PINOCHLE_H

#include <stdint.h>

/* ===== Cards (docs/rules.md §1 Deck) ==========================================
 * A kind is suit * 6 + rank: ranks 9 J Q K 10 A are 0..5 (the order in which
 * they win a trick), suits S H D C are 0..3. A set of kinds is a 24-bit mask, bit
 * k for kind k, so within a suit a higher bit is a higher card. */

typedef uint32_t Mask;

enum { NINE, JACK, QUEEN, KING, TEN, ACE };
#define SUITS 4
#define RANKS 6
#define KINDS 24
#define DECK_MASK 0xFFFFFFu
#define SUIT_MASK(s) (0x3Fu << (6 * (s)))
#define SUIT_OF(k) ((k) / 6)
#define RANK_OF(k) ((k) % 6)
#define KIND(s, r) ((s) * 6 + (r))
#define BIT(k) (1u << (k))
#define QS KIND(0, QUEEN) /* the pinochle: queen of spades ... */
#define JD KIND(2, JACK)  /* ... and jack of diamonds (docs/rules.md §1 Meld) */

/* The letters of str(Card): rank, then suit ("9JQKTA", "SHDC"). */
static const char RANK_LETTERS[] = "9JQKTA";
static const char SUIT_LETTERS[] = "SHDC";

/* docs/rules.md §1 Meld: the five ranks of a run, and the four ranks that meld
 * "around" (one of each suit), in the engine's order. */
static const int RUN_RANKS[5] = {ACE, TEN, KING, QUEEN, JACK};
static const int AROUND_RANKS[4] = {ACE, KING, QUEEN, JACK};

/* The kinds of the same suit strictly above each kind: the cards that beat it
 * when it leads (docs/rules.md §1 Play: rank order 9 J Q K 10 A). */
#define ABOVE_(k) (SUIT_MASK(SUIT_OF(k)) & ~((2u << (k)) - 1u))
static const Mask ABOVE[KINDS] = {
    ABOVE_(0),  ABOVE_(1),  ABOVE_(2),  ABOVE_(3),  ABOVE_(4),  ABOVE_(5),
    ABOVE_(6),  ABOVE_(7),  ABOVE_(8),  ABOVE_(9),  ABOVE_(10), ABOVE_(11),
    ABOVE_(12), ABOVE_(13), ABOVE_(14), ABOVE_(15), ABOVE_(16), ABOVE_(17),
    ABOVE_(18), ABOVE_(19), ABOVE_(20), ABOVE_(21), ABOVE_(22), ABOVE_(23),
};
#undef ABOVE_

/* ===== Bits ==================================================================== */

static inline int popcount(Mask m) { return __builtin_popcount(m); }
/* The lowest and the highest kind of a non-empty mask. */
static inline int low_bit(Mask m) { return __builtin_ctz(m); }
static inline int high_bit(Mask m) { return 31 - __builtin_clz(m); }

/* ===== The trick winner (docs/rules.md §1 Play) ================================ */

/* Whether `card`, played after `winning` (the card now winning the trick), takes
 * the trick from it: a higher card of the same suit, or a trump on a card that is
 * not one. Of two identical cards the first played wins, hence the strict ">". */
static inline int beats(int winning, int card, int trump)
{
    if (SUIT_OF(card) == SUIT_OF(winning)) return card > winning;
    return SUIT_OF(card) == trump;
}

/* The kinds that would beat `winning` (beats() as a mask). */
static inline Mask beaters_of(int winning, int trump)
{
    if (SUIT_OF(winning) == trump) return ABOVE[winning];
    return ABOVE[winning] | SUIT_MASK(trump);
}

/* Index in `trick` (n >= 1 cards, in the order played) of the winning card: the
 * highest trump, else the highest card of the suit led (docs/rules.md §1 Play). */
static inline int winner_index(const int *trick, int n, int trump)
{
    int best = 0;
    for (int i = 1; i < n; i++)
        if (beats(trick[best], trick[i], trump)) best = i;
    return best;
}

/* ===== Legal plays (docs/rules.md §1 Play rules 1-3, §2 options) ===============
 * The options of tricks.must_beat_flags and Rules.first_lead_trump. A core that
 * plays a game without some option leaves its flag 0. */

typedef struct {
    int beat_follow;      /* §2 must beat: following a non-trump lead, beat the winning card */
    int beat_trump_led;   /* §2 must beat: following a trump lead, beat the winning trump */
    int over_trump;       /* §2 must beat: trumping a trick already trumped, beat that trump */
    int trump_follows;    /* §2 trump follows trump: once a trick is trumped, trump if able */
    int first_lead_trump; /* §2 first lead: the hand's first card is a trump if one is held */
} PlayRules;

/* The kinds of `hand` that may lead a trick (docs/rules.md §1 Play: any card; §2
 * first lead: a trump on the hand's first trick if the option says so). */
static inline Mask lead_mask(const PlayRules *r, Mask hand, int trump, int first_trick)
{
    Mask trumps = hand & SUIT_MASK(trump);
    if (first_trick && r->first_lead_trump && trumps) return trumps;
    return hand;
}

/* The kinds of `hand` that may follow onto a trick whose suit led is `led` and whose
 * winning card is `high` (tricks.follow_mask). */
static inline Mask follow_mask(const PlayRules *r, Mask hand, int led, int high, int trump)
{
    Mask trumps = hand & SUIT_MASK(trump);
    int trumped = led != trump && SUIT_OF(high) == trump;
    if (trumped && r->trump_follows && trumps) {
        /* §2 trump follows trump: trump even holding the suit led; beat the
         * highest trump where the must-beat option says to over-trump. */
        Mask higher = trumps & ABOVE[high];
        return r->over_trump && higher ? higher : trumps;
    }
    Mask following = hand & SUIT_MASK(led);
    if (following) {
        /* §1 rule 1: follow suit, beating the winning card if §2 must beat says so;
         * once a non-trump lead is trumped any card of the suit led will do. */
        int must = led == trump ? r->beat_trump_led : r->beat_follow;
        if (must && !trumped) {
            Mask higher = following & ABOVE[high];
            if (higher) return higher;
        }
        return following;
    }
    if (trumps) {
        /* §1 rule 2: void in the suit led, trump; over-trump if §2 requires it. */
        if (trumped && r->over_trump) {
            Mask higher = trumps & ABOVE[high];
            if (higher) return higher;
        }
        return trumps;
    }
    return hand; /* §1 rule 3: void in the suit led and in trump, any card. */
}

/* The kinds of `hand` that may be played onto `trick` (n cards so far) on the
 * hand's first trick or a later one (tricks.legal_mask). */
static inline Mask legal_mask(const PlayRules *r, Mask hand, const int *trick, int n,
                              int trump, int first_trick)
{
    if (n == 0) return lead_mask(r, hand, trump, first_trick);
    return follow_mask(r, hand, SUIT_OF(trick[0]), trick[winner_index(trick, n, trump)],
                       trump);
}

/* The two-handed game's answer to a lead (docs/rules.md §4: two cards a trick, after
 * the stock is gone). It is follow_mask(r, hand, SUIT_OF(lead), lead, trump) for a
 * trick of one card: the lead is the winning card and nothing has trumped it, so the
 * over-trump and trump-follows-trump options never apply and only the two must-beat
 * flags are read. */
static inline Mask follow_one(const PlayRules *r, Mask hand, int lead, int trump)
{
    int led = SUIT_OF(lead);
    Mask following = hand & SUIT_MASK(led);
    if (following) {
        int must = led == trump ? r->beat_trump_led : r->beat_follow;
        if (must && (following & ABOVE[lead])) return following & ABOVE[lead];
        return following;
    }
    Mask trumps = hand & SUIT_MASK(trump);
    return trumps ? trumps : hand;
}

/* ===== Meld, per class (docs/rules.md §1.7 Meld; §2 meld options) ==============
 * A card may serve once in each class (meld_reuse "per_class", meld._meld_cached).
 * A hand is given as the count (0-2) of each kind; `v` holds the meld values in the
 * game's own scale in the order of M_* (meld.meld_values). Every C core counts
 * meld with these; engine/meld.py is the reference. */

enum { M_RUN, M_DRUN, M_ROYAL, M_COMMON, M_DIX, M_ACES, M_DACES, M_KINGS, M_DKINGS,
       M_QUEENS, M_DQUEENS, M_JACKS, M_DJACKS, M_PIN, M_DPIN, M_COUNT };

/* Class I of suit `s`: its marriages, and in trump the run (single or double) and
 * the dix (each nine of trump); `use`, where given, gets the copies of each kind its
 * melds use (more than are held where a run's king also marries). run_marries: docs/rules.md §2, an extra K or Q with
 * a run marries the run's Q or K (run_extra "marries"). */
static inline int meld_suit(const int *v, int run_marries, const int *c, int s, int trump,
                            int *use)
{
    int K = KIND(s, KING), Q = KIND(s, QUEEN), points = 0;
    int marriages = c[K] < c[Q] ? c[K] : c[Q];
    if (s != trump) {
        points = marriages * v[M_COMMON];
    } else {
        int runs = 2, nines = c[KIND(s, NINE)];
        for (int i = 0; i < 5; i++)
            if (c[KIND(s, RUN_RANKS[i])] < runs) runs = c[KIND(s, RUN_RANKS[i])];
        if (runs == 2) { /* a double run, and nothing more from those ten cards */
            points = v[M_DRUN];
            marriages = 0;
        } else if (runs == 1) {
            points = v[M_RUN];
            int extra_k = c[K] - 1, extra_q = c[Q] - 1;
            marriages = run_marries ? extra_k + extra_q : (extra_k && extra_q);
        }
        points += marriages * v[M_ROYAL] + nines * v[M_DIX];
        if (use) {
            for (int i = 0; i < 5; i++) use[KIND(s, RUN_RANKS[i])] += runs;
            use[KIND(s, NINE)] += nines;
        }
    }
    if (use) { use[K] += marriages; use[Q] += marriages; }
    return points;
}

/* Class II: aces, kings, queens or jacks around (AROUND_RANKS[i]), single or double;
 * `need`, where given, is raised to the copies it shows. */
static inline int meld_around(const int *v, const int *c, int i, int *need)
{
    int rank = AROUND_RANKS[i], n = 2;
    for (int s = 0; s < 4; s++)
        if (c[KIND(s, rank)] < n) n = c[KIND(s, rank)];
    if (need)
        for (int s = 0; s < 4; s++)
            if (n > need[KIND(s, rank)]) need[KIND(s, rank)] = n;
    return n ? v[M_ACES + 2 * i + (n == 2)] : 0;
}

/* Class III: the pinochle, Q♠ J♦, single or double; `need` as for meld_around. */
static inline int meld_pinochle(const int *v, const int *c, int *need)
{
    int n = c[QS] < c[JD] ? c[QS] : c[JD];
    if (need) {
        if (n > need[QS]) need[QS] = n;
        if (n > need[JD]) need[JD] = n;
    }
    return n ? v[M_PIN + (n == 2)] : 0;
}

/* The per-class meld of a hand: its points, and in `need` (if given) the copies of
 * each kind shown: a card shows once per meld of its class, so across the three
 * classes the largest count (meld._shown). */
static inline int meld_per_class_counts(const int *v, int run_marries, const int *c,
                                        int trump, int *need)
{
    int points = 0;
    if (!need) {
        for (int s = 0; s < 4; s++) points += meld_suit(v, run_marries, c, s, trump, NULL);
        for (int i = 0; i < 4; i++) points += meld_around(v, c, i, NULL);
        return points + meld_pinochle(v, c, NULL);
    }
    /* class I adds up within a suit (a run's king also marries): counted, then capped
     * by the copies held; classes II and III raise what it shows */
    for (int k = 0; k < KINDS; k++) need[k] = 0;
    for (int s = 0; s < 4; s++) points += meld_suit(v, run_marries, c, s, trump, need);
    for (int k = 0; k < KINDS; k++)
        if (need[k] > c[k]) need[k] = c[k];
    for (int i = 0; i < 4; i++) points += meld_around(v, c, i, need);
    return points + meld_pinochle(v, c, need);
}

#endif /* PINOCHLEKIT_PINOCHLE_H */
