/* A C reference of one 6 nimmt! round (4 players, all `random`, the cheapest row at N10), for
 * the "how close to the limit" figure beside the kernel (scripts/bench_kernel.py compiles and
 * runs it when a C compiler is present). The same work as the kernel per round: PCG64 with a
 * native 128-bit multiply, NumPy's masked Fisher-Yates deal of 104 cards, a 16-double draw
 * buffer per seat, N5-N13 placements. Two modes:
 *   bench_kernel_ref ROUNDS          its own cheap seeds, no SeedSequence (not the same games);
 *   bench_kernel_ref ROUNDS MASTER   each game's streams from SeedSequence(MASTER, spawn_key=(k,))
 *                                    (0 <= MASTER < 2**32) as the kernel derives them
 *                                    (kernel_rng.seed_words: 6 streams of 4 players, stream s's
 *                                    increment seeding._stream_inc(s)): the
 *                                    kernel's games, game for game (its checksum, the sum of every
 *                                    seat's points, equals the kernel's for games 0..ROUNDS-1).
 *   bench_kernel_ref ROUNDS MASTER deal   the deals only (seeding and shuffle), for the split of
 *                                    a round's time (scripts/bench_kernel_phases.py).
 * Prints rounds per second of CPU time and the checksum. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct { __uint128_t s, inc; int has32; uint32_t half; uint64_t buf[16]; int left; } gen_t;
static const __uint128_t MUL = ((__uint128_t)2549297995355413924ULL << 64) | 4865540595714422341ULL;

static inline uint64_t next64(gen_t *g) {
    g->s = g->s * MUL + g->inc;
    uint64_t hi = (uint64_t)(g->s >> 64), lo = (uint64_t)g->s, x = hi ^ lo;
    unsigned rot = hi >> 58;
    return (x >> rot) | (x << ((64 - rot) & 63));
}
static inline uint32_t next32(gen_t *g) {
    if (g->has32) { g->has32 = 0; return g->half; }
    uint64_t v = next64(g); g->has32 = 1; g->half = (uint32_t)(v >> 32); return (uint32_t)v;
}
static inline double buffered(gen_t *g) {
    if (!g->left) { for (int i = 0; i < 16; i++) g->buf[i] = next64(g); g->left = 16; }
    return (g->buf[--g->left] >> 11) * (1.0 / 9007199254740992.0);
}
static int BH[105];
static int deal_only;

/* NumPy's SeedSequence on 32-bit words (seeding.py's constants), as kernel_rng.seed_words */
static uint32_t hashmix(uint32_t value, uint32_t *h) {
    value ^= *h; *h *= 0x931E8875u; value *= *h; return value ^ (value >> 16);
}
static void seed_game(uint32_t master, uint32_t k, int streams, gen_t *gens) {
    uint32_t run[5] = {master, 0, 0, 0, k}, pool[4], h = 0x43B0D7E5u, hb = 0x8B51F9DDu;
    for (int i = 0; i < 4; i++) pool[i] = hashmix(run[i], &h);
    for (int src = 0; src < 5; src++)
        for (int dst = 0; dst < 4; dst++) {
            if (src == dst) continue;
            uint32_t hashed = hashmix(src < 4 ? pool[src] : run[src], &h);
            uint32_t mixed = 0xCA01F9DDu * pool[dst] - 0x4973F715u * hashed;
            pool[dst] = mixed ^ (mixed >> 16);
        }
    uint64_t words[2 * 8];
    for (int w = 0; w < 2 * streams; w++) {
        uint64_t pair = 0;
        for (int half = 0; half < 2; half++) {
            uint32_t value = pool[(2 * w + half) % 4] ^ hb;
            hb *= 0x58F38DEDu; value *= hb;
            pair |= (uint64_t)(value ^ (value >> 16)) << (32 * half);
        }
        words[w] = pair;
    }
    const __uint128_t step = ((__uint128_t)0x9E3779B97F4A7C15ULL << 64) | 0xF39CC0605CEDC835ULL;
    for (int s = 0; s < 5 && s < streams; s++) {
        gens[s].s = ((__uint128_t)words[2 * s] << 64) | words[2 * s + 1];
        gens[s].inc = (step * (__uint128_t)(2 * s + 1)) | 1;
        gens[s].has32 = 0; gens[s].left = 0;
    }
}

static int round_once(gen_t *gens, int n) {
    int deck[104];
    for (int i = 0; i < 104; i++) deck[i] = i + 1;
    for (int i = 103; i > 0; i--) {
        uint32_t mask = i; mask |= mask >> 1; mask |= mask >> 2; mask |= mask >> 4; mask |= mask >> 8;
        uint32_t v; do { v = next32(&gens[0]) & mask; } while (v > (uint32_t)i);
        int t = deck[i]; deck[i] = deck[v]; deck[v] = t;
    }
    if (deal_only) return deck[0];
    int hand[4][10], len[4], rows[4][5], rlen[4], pts[4] = {0, 0, 0, 0};
    for (int s = 0; s < n; s++) { len[s] = 10; for (int i = 0; i < 10; i++) hand[s][i] = deck[s * 10 + i]; }
    for (int r = 0; r < 4; r++) { rows[r][0] = deck[40 + r]; rlen[r] = 1; }
    for (int turn = 0; turn < 10; turn++) {
        int card[4], seat[4];
        for (int s = 0; s < n; s++) {
            int pos = (int)(buffered(&gens[1 + s]) * len[s]);
            card[s] = hand[s][pos]; seat[s] = s;
            for (int i = pos; i < len[s] - 1; i++) hand[s][i] = hand[s][i + 1];
            len[s]--;
        }
        for (int i = 1; i < n; i++) for (int j = i; j > 0 && card[j - 1] > card[j]; j--) {
            int t = card[j]; card[j] = card[j - 1]; card[j - 1] = t;
            t = seat[j]; seat[j] = seat[j - 1]; seat[j - 1] = t;
        }
        for (int i = 0; i < n; i++) {
            int best = -1, end = 0;
            for (int r = 0; r < 4; r++) { int e = rows[r][rlen[r] - 1]; if (end < e && e < card[i]) { best = r; end = e; } }
            if (best < 0 || rlen[best] == 5) {
                if (best < 0) {         /* N10: the cheapest row */
                    int low = 1 << 30;
                    for (int r = 0; r < 4; r++) { int p = 0; for (int k = 0; k < rlen[r]; k++) p += BH[rows[r][k]];
                        if (p < low) { low = p; best = r; } }
                }
                for (int k = 0; k < rlen[best]; k++) pts[seat[i]] += BH[rows[best][k]];
                rows[best][0] = card[i]; rlen[best] = 1;
            } else rows[best][rlen[best]++] = card[i];
        }
    }
    return pts[0] + pts[1] + pts[2] + pts[3];
}

int main(int argc, char **argv) {
    long rounds = argc > 1 ? atol(argv[1]) : 1000000;
    int seeded = argc > 2;
    uint32_t master = seeded ? (uint32_t)atol(argv[2]) : 0;
    deal_only = argc > 3;
    for (int v = 1; v <= 104; v++) BH[v] = v == 55 ? 7 : v % 11 == 0 ? 5 : v % 10 == 0 ? 3 : v % 5 == 0 ? 2 : 1;
    gen_t gens[5];
    long check = 0;
    clock_t t0 = clock();
    for (long k = 0; k < rounds; k++) {
        if (seeded) { seed_game(master, (uint32_t)k, 6, gens); check += round_once(gens, 4); continue; }
        for (int s = 0; s < 5; s++) {
            gens[s].s = ((__uint128_t)(k * 2654435761u + s) << 64) | (uint64_t)(k * 40503 + 7 * s + 1);
            gens[s].inc = ((__uint128_t)(2 * s + 1) << 64) | (uint64_t)(2 * s + 1);
            gens[s].has32 = 0; gens[s].left = 0;
        }
        check += round_once(gens, 4);
    }
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    printf("%.0f %ld\n", rounds / secs, check);
    return 0;
}
