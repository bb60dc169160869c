// Provably fair deals, checked in the browser with no help from the server:
// SHA-256 of a revealed deal seed must equal the hash shown before the hand, and
// the deal recomputed from the seed (SHAKE-256 keys, as pinochlekit/engine/deals.py does)
// must equal the cards dealt. Plain JavaScript: works on http:// too, where
// crypto.subtle is not available.

const K256 = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2]);

/** SHA-256 of a UTF-8 string, as lowercase hex. */
export function sha256Hex(text) {
  const data = new TextEncoder().encode(text);
  const length = ((data.length + 9 + 63) >> 6) << 6;
  const bytes = new Uint8Array(length);
  bytes.set(data);
  bytes[data.length] = 0x80;
  const view = new DataView(bytes.buffer);
  view.setUint32(length - 4, data.length * 8);
  view.setUint32(length - 8, Math.floor(data.length / 0x20000000));
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                             0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g))
                  + K256[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  return Array.from(h, (x) => x.toString(16).padStart(8, "0")).join("");
}

const MASK64 = (1n << 64n) - 1n;
const ROUND = [
  0x0000000000000001n, 0x0000000000008082n, 0x800000000000808an, 0x8000000080008000n,
  0x000000000000808bn, 0x0000000080000001n, 0x8000000080008081n, 0x8000000000008009n,
  0x000000000000008an, 0x0000000000000088n, 0x0000000080008009n, 0x000000008000000an,
  0x000000008000808bn, 0x800000000000008bn, 0x8000000000008089n, 0x8000000000008003n,
  0x8000000000008002n, 0x8000000000000080n, 0x000000000000800an, 0x800000008000000an,
  0x8000000080008081n, 0x8000000000008080n, 0x0000000080000001n, 0x8000000080008008n];
const ROT = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8,
             18, 2, 61, 56, 14];

function rotl(x, n) {
  return n === 0 ? x : ((x << BigInt(n)) | (x >> BigInt(64 - n))) & MASK64;
}

function keccakF(s) {
  for (let round = 0; round < 24; round++) {
    const c = [0, 1, 2, 3, 4].map((x) => s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20]);
    for (let x = 0; x < 5; x++) {
      const d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1);
      for (let y = 0; y < 25; y += 5) s[y + x] ^= d;
    }
    const b = new Array(25);
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++) b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(s[x + 5 * y], ROT[x + 5 * y]);
    }
    for (let i = 0; i < 25; i++) {
      const x = i % 5, y = i - x;
      s[i] = b[i] ^ ((~b[y + (x + 1) % 5] & MASK64) & b[y + (x + 2) % 5]);
    }
    s[0] ^= ROUND[round];
  }
}

/** SHAKE-256 of a UTF-8 string: ``length`` bytes. */
export function shake256(text, length) {
  const rate = 136;
  const data = new TextEncoder().encode(text);
  const padded = new Uint8Array(Math.ceil((data.length + 1) / rate) * rate);
  padded.set(data);
  padded[data.length] ^= 0x1f;
  padded[padded.length - 1] ^= 0x80;
  const s = new Array(25).fill(0n);
  for (let off = 0; off < padded.length; off += rate) {
    for (let i = 0; i < rate / 8; i++) {
      let lane = 0n;
      for (let j = 7; j >= 0; j--) lane = (lane << 8n) | BigInt(padded[off + 8 * i + j]);
      s[i] ^= lane;
    }
    keccakF(s);
  }
  const out = new Uint8Array(length);
  for (let pos = 0; pos < length;) {
    for (let i = 0; i < rate / 8 && pos < length; i++) {
      let lane = s[i];
      for (let j = 0; j < 8 && pos < length; j++, pos++) {
        out[pos] = Number(lane & 0xffn);
        lane >>= 8n;
      }
    }
    if (pos < length) keccakF(s);
  }
  return out;
}

const RANKS = "9JQKTA";
const SUITS = "SHDC";

/** The text of a card kind 0-23 (suit * 6 + rank): "TS", "9H". */
export function cardText(kind) {
  return RANKS[kind % 6] + SUITS[Math.floor(kind / 6)];
}

/** The hands a deal seed deals, each in display order, as pinochlekit/web/dealing.py:
 * four players 12 cards each (docs/rules.md §1 Deal); three players 15 each with the widow
 * dealt after the first round (docs/rules.md §3); two players 12 each, the next card turned
 * up and the rest the stock (docs/rules.md §4). ``rest``: the widow, or turn-up and stock. */
export function dealFromSeed(seed, dealer, players = 4, deckKind = "single") {
  if (deckKind === "double") return doubleDeal(seed, dealer);
  const bytes = shake256(`pinochlekit/shuffle/${seed}`, 48 * 8);
  const keys = [];
  for (let i = 0; i < 48; i++) {
    let key = 0n;
    for (let j = 0; j < 8; j++) key = (key << 8n) | BigInt(bytes[8 * i + j]);
    keys.push(key);
  }
  const order = [...Array(48).keys()].sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b));
  let deck = order.map((i) => i >> 1);
  let rest = [];
  if (players === 3) {
    rest = deck.slice(9, 12);  // the widow: three cards after the first round
    deck = deck.slice(0, 9).concat(deck.slice(12));
  } else if (players === 2) {
    rest = deck.slice(24);  // the turned-up card, then the stock in drawing order
  }
  const hands = Array.from({ length: players }, () => []);
  const perHand = players === 3 ? 15 : 12;
  for (let i = 0; i < perHand * players; i++) hands[(dealer + 1 + Math.floor(i / 3)) % players].push(deck[i]);
  const display = (a, b) => Math.floor(a / 6) - Math.floor(b / 6) || (b % 6) - (a % 6);
  const dealt = hands.map((h) => h.sort(display).map(cardText).join(" "));
  dealt.rest = (players === 3 ? rest.sort(display) : rest).map(cardText).join(" ");
  return dealt;
}

/** The double deck's deal (docs/rules.md §6), as pinochlekit/engine/double/cards.py: the 80
 * deck positions (position p holds the p // 4-th kind without the nines) sorted on 64-bit
 * keys from SHAKE-256, then four cards at a time from the dealer's left, 20 each. */
export function doubleDeal(seed, dealer) {
  const bytes = shake256(`pinochlekit/double-shuffle/${seed}`, 80 * 8);
  const keys = [];
  for (let i = 0; i < 80; i++) {
    let key = 0n;
    for (let j = 0; j < 8; j++) key = (key << 8n) | BigInt(bytes[8 * i + j]);
    keys.push(key);
  }
  const kinds = [...Array(24).keys()].filter((k) => k % 6 !== 0);  // no nines
  const order = [...Array(80).keys()].sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b));
  const hands = [[], [], [], []];
  order.forEach((p, i) => hands[(dealer + 1 + Math.floor(i / 4)) % 4].push(kinds[p >> 2]));
  const display = (a, b) => Math.floor(a / 6) - Math.floor(b / 6) || (b % 6) - (a % 6);
  const dealt = hands.map((h) => h.sort(display).map(cardText).join(" "));
  dealt.rest = "";
  return dealt;
}

/** Check a finished hand: the revealed seed against the hash this browser saw before
 * the hand, and the deal it gives against the cards this seat was dealt. */
export function checkHand(hand, shownCommitment, myDealtHand, seat) {
  const hash = sha256Hex(hand.deal_seed);
  const dealt = dealFromSeed(hand.deal_seed, hand.dealer, hand.players || 4, hand.deck || "single");
  const mine = myDealtHand === undefined || seat === null ? null : myDealtHand === dealt[seat];
  return { hashOk: hash === (shownCommitment || hand.commitment), handOk: mine, dealt };
}

/** The seed of game `gameNo` at a table, as pinochlekit/web/dealing.py's game_seed
 * computes it: SHA-256 of "pinochlekit/game/" + the server seed, every seat's
 * revealed value ("" for none) and the game number, joined by "/". */
export function gameSeed(serverSeed, clientSeeds, gameNo) {
  return sha256Hex(`pinochlekit/game/${[serverSeed, ...clientSeeds, String(gameNo)].join("/")}`);
}

/** The seed of deal `index` (from 0, redeals counted) of a game, as engine/deals.py's
 * deal_seed computes it. */
export function dealSeed(seed, index) {
  return sha256Hex(`pinochlekit/deal/${seed}/${index}`);
}

/** The seats whose revealed value is not the one they committed to (SHA-256 of the
 * value), and those that committed and revealed nothing: a value counts only if it
 * was committed to before any value was revealed. */
export function checkCommitments(values, commitments) {
  const wrong = [];
  const withheld = [];
  values.forEach((value, seat) => {
    const committed = (commitments || [])[seat] || "";
    if (value && sha256Hex(value) !== committed) wrong.push(seat);
    if (!value && committed) withheld.push(seat);
  });
  return { wrong, withheld };
}
