// Writes ../fixtures/fsrs_reference.json: review sequences scheduled by ts-fsrs (the version
// pinned in package.json) with its default parameters and fuzz off, for fsrs_test.cpp to replay.
// Deterministic: the sequences come from a seeded generator, so a re-run writes the same file.
// Run: npm ci && node generate.mjs   (from this folder)
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { createEmptyCard, fsrs, generatorParameters, FSRSVersion, Rating, State } from 'ts-fsrs'

const SEED = 20261202
const SEQUENCES = 50
const REVIEWS = 10
const DAY = 86_400_000
const MINUTE = 60_000

const params = generatorParameters({ enable_fuzz: false })
const scheduler = fsrs(params)

// mulberry32: a small 32-bit generator, enough to pick ratings and times reproducibly.
function generator(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
const random = generator(SEED)
const between = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1))  // integer in [lo, hi]
const pick = (weighted) => {
  let x = random() * weighted.reduce((sum, [, weight]) => sum + weight, 0)
  for (const [value, weight] of weighted) {
    if ((x -= weight) < 0) return value
  }
  return weighted[weighted.length - 1][0]
}

const ratingName = { [Rating.Again]: 'again', [Rating.Hard]: 'hard', [Rating.Good]: 'good', [Rating.Easy]: 'easy' }
const stateName = { [State.New]: 'new', [State.Learning]: 'learning', [State.Review]: 'review', [State.Relearning]: 'relearning' }
const iso = (date) => {
  if (date.getTime() % 1000 !== 0) throw new Error(`not a whole second: ${date.toISOString()}`)
  return date.toISOString().replace('.000Z', 'Z')
}

// When the next review happens, relative to the card's last review and its due time.
const timings = {
  on_time: (last, due) => due,
  early: (last, due) => last + Math.max(1000, Math.round((due - last) * (0.2 + 0.6 * random()) / 1000) * 1000),
  late: (last, due) => due + between(1, 40) * DAY + between(0, 86_399) * 1000,
  same_day: (last) => {
    const end_of_day = Math.floor(last / DAY) * DAY + DAY - 1000
    return Math.min(end_of_day, last + between(1, 360) * MINUTE)
  },
  after_midnight: (last) => Math.floor(last / DAY) * DAY + DAY + between(0, 300) * 1000,
  long_gap: (last, due) => due + between(200, 1500) * DAY + between(0, 86_399) * 1000,
}

function record(card, at, rating, log) {
  const now = at.getTime()
  const probes = [now, now + 12 * 3_600_000, now + DAY, card.due.getTime(), card.due.getTime() + 7 * DAY, now + 100 * DAY]
  return {
    at: iso(at),
    rating: ratingName[rating],
    elapsed_days: log.elapsed_days,
    card: {
      state: stateName[card.state],
      due: iso(card.due),
      stability: card.stability,
      difficulty: card.difficulty,
      reps: card.reps,
      lapses: card.lapses,
      step: card.learning_steps,
      scheduled_days: card.scheduled_days,
      last_review: iso(card.last_review),
    },
    retrievability: probes.map((t) => ({ at: iso(new Date(t)), r: scheduler.get_retrievability(card, new Date(t), false) })),
  }
}

// One sequence: a new card at `start`, then each step [timing, rating] in turn.
function sequence(name, start, steps) {
  let card = createEmptyCard(new Date(start))
  let last = start
  const reviews = []
  for (const [timing, rating] of steps) {
    const at = new Date(reviews.length === 0 ? start : timings[timing](last, card.due.getTime()))
    const { card: next, log } = scheduler.next(card, at, rating)
    reviews.push(record(next, at, rating, log))
    card = next
    last = at.getTime()
  }
  return { name, start: iso(new Date(start)), reviews }
}

const start_of_2026 = Date.UTC(2026, 0, 1)
const sequences = []
// Hand-made: each rating repeated on time, lapses in a row, reviews across midnight, long gaps.
const repeat = (timing, rating, n = REVIEWS) => Array.from({ length: n }, () => [timing, rating])
const at = (day, hour, minute) => start_of_2026 + day * DAY + hour * 3_600_000 + minute * MINUTE
sequences.push(sequence('again_on_time', at(10, 9, 0), repeat('on_time', Rating.Again)))
sequences.push(sequence('hard_on_time', at(11, 9, 0), repeat('on_time', Rating.Hard)))
sequences.push(sequence('good_on_time', at(12, 9, 0), repeat('on_time', Rating.Good)))
sequences.push(sequence('easy_on_time', at(13, 9, 0), repeat('on_time', Rating.Easy)))
sequences.push(sequence('good_then_lapses', at(14, 9, 0),
  [...repeat('on_time', Rating.Good, 4), ...repeat('on_time', Rating.Again, 3), ...repeat('on_time', Rating.Good, 3)]))
sequences.push(sequence('late_evening_then_after_midnight', at(15, 23, 58),
  [...repeat('on_time', Rating.Good, 1), ['after_midnight', Rating.Good], ['after_midnight', Rating.Hard],
   ['same_day', Rating.Good], ['after_midnight', Rating.Again], ['after_midnight', Rating.Good]]))
sequences.push(sequence('same_day_all_ratings', at(16, 8, 0),
  [[null, Rating.Easy], ['same_day', Rating.Again], ['same_day', Rating.Hard], ['same_day', Rating.Good],
   ['same_day', Rating.Easy], ['on_time', Rating.Good], ['same_day', Rating.Again], ['same_day', Rating.Good]]))
sequences.push(sequence('long_gaps', at(17, 12, 30),
  [[null, Rating.Good], ['on_time', Rating.Good], ['long_gap', Rating.Good], ['long_gap', Rating.Again],
   ['on_time', Rating.Good], ['long_gap', Rating.Easy], ['long_gap', Rating.Hard], ['long_gap', Rating.Good]]))
sequences.push(sequence('early_reviews', at(18, 7, 15), [[null, Rating.Good], ...repeat('early', Rating.Good, 4),
  ['on_time', Rating.Good], ['on_time', Rating.Good], ...repeat('early', Rating.Easy, 2), ['early', Rating.Hard]]))
// Random: ratings Again 15%, Hard 15%, Good 50%, Easy 20%; every timing.
const ratings = [[Rating.Again, 15], [Rating.Hard, 15], [Rating.Good, 50], [Rating.Easy, 20]]
const timing_weights = [['on_time', 35], ['early', 15], ['late', 20], ['same_day', 12], ['after_midnight', 8], ['long_gap', 10]]
for (let i = 0; i < SEQUENCES; ++i) {
  const start = start_of_2026 + between(0, 364) * DAY + between(0, 86_399) * 1000
  const steps = Array.from({ length: REVIEWS }, () => [pick(timing_weights), pick(ratings)])
  sequences.push(sequence(`random_${String(i).padStart(2, '0')}`, start, steps))
}

const out = {
  generator: `ts-fsrs ${FSRSVersion}, tests/fsrs_reference/generate.mjs, seed ${SEED}`,
  parameters: {
    w: params.w,
    request_retention: params.request_retention,
    maximum_interval: params.maximum_interval,
    learning_steps: params.learning_steps,
    relearning_steps: params.relearning_steps,
    enable_fuzz: params.enable_fuzz,
    enable_short_term: params.enable_short_term,
  },
  sequences,
}
// One review per line keeps the file readable and its diffs small.
const lines = [
  '{',
  ` "generator": ${JSON.stringify(out.generator)},`,
  ` "parameters": ${JSON.stringify(out.parameters)},`,
  ' "sequences": [',
  sequences.map((s) => `  {"name": ${JSON.stringify(s.name)}, "start": ${JSON.stringify(s.start)}, "reviews": [\n` +
    s.reviews.map((r) => `   ${JSON.stringify(r)}`).join(',\n') + '\n  ]}').join(',\n'),
  ' ]',
  '}',
]
const target = fileURLToPath(new URL('../fixtures/fsrs_reference.json', import.meta.url))
writeFileSync(target, lines.join('\n') + '\n')
const count = sequences.reduce((n, s) => n + s.reviews.length, 0)
console.log(`wrote ${target}: ${sequences.length} sequences, ${count} reviews`)
