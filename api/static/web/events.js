// An event of the events API (and of the stream) as a sentence in the page's language: who did
// what, with the cards the event shows as cards. `event.data` is already what the viewer may see
// (hidden cards are left out by the server); nothing here prints a field the event does not carry,
// and an event type not known here reads "<player> acts", never its machine name.
//
// ctx: {t, nt, cardElement, playerName(seat), currency?}. Words are t()/nt() with %(name)s
// placeholders; a card or a row of cards goes into its placeholder as elements, text as text.
import { listOf } from "./games/parts.js";

// A translated template with its placeholders filled: text as text, elements (cards) as they are.
function fill(template, values) {
  const parts = [];
  const pattern = /%\((\w+)\)s/g;
  let last = 0;
  for (let match = pattern.exec(template); match; match = pattern.exec(template)) {
    parts.push(template.slice(last, match.index));
    const value = values && match[1] in values ? values[match[1]] : match[0];
    if (Array.isArray(value)) parts.push(...value);
    else parts.push(value instanceof Node ? value : String(value));
    last = match.index + match[0].length;
  }
  parts.push(template.slice(last));
  return parts.filter((part) => part !== "");
}

// Cards as a row of card elements (each named for screen readers).
function cards(codes, ctx) {
  const row = document.createElement("span");
  row.className = "cards";
  (codes || []).forEach((code, index) => {
    if (index) row.append(" ");
    row.append(ctx.cardElement(code));
  });
  return row;
}

function isSeat(value) {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

function names(seats, ctx) {
  return listOf((seats || []).map((seat) => ctx.playerName(seat)));
}

// The event's player: the seat the event is about, else the seat that acted, else the actor's name.
function subject(event, ctx) {
  const data = event.data || {};
  if (isSeat(data.seat)) return ctx.playerName(data.seat);
  if (isSeat(event.actor_seat)) return ctx.playerName(event.actor_seat);
  if (event.actor) return event.actor;
  return null;
}

function late(parts, timedOut, ctx) {
  return timedOut ? [...parts, " ", ctx.t("(time ran out)")] : parts;
}

function suitWords(suit, t) {
  return { c: t("clubs"), d: t("diamonds"), h: t("hearts"), s: t("spades") }[suit] || null;
}

function money(amount, ctx) {
  return ctx.currency ? `${amount} ${ctx.currency}` : String(amount);
}

// One sentence per event type, by game where the same name means different things.
const SENTENCES = {
  // Presence (every game).
  SatOut: (e, d, ctx, p) => fill(ctx.t("%(player)s sits out"), { player: p }),
  SatIn: (e, d, ctx, p) => fill(ctx.t("%(player)s sits in again"), { player: p }),
  LeftTable: (e, d, ctx, p) => fill(ctx.t("%(player)s leaves the table"), { player: p }),

  // The first dealer and the deal.
  FirstDealerDrawn: (e, d, ctx) => {
    const { t } = ctx;
    return fill(t("%(player)s deals first (cards drawn: %(cards)s)"), {
      player: ctx.playerName(d.dealer),
      cards: cards((d.draws || []).map((draw) => draw[1]), ctx),
    });
  },
  HandStarted: (e, d, ctx) => {
    const { t } = ctx;
    if (d.turned_card) {
      return fill(t("Hand %(number)s: %(player)s deals and turns up %(card)s"), {
        number: d.hand_no, player: ctx.playerName(d.dealer), card: ctx.cardElement(d.turned_card),
      });
    }
    const dealer = isSeat(d.dealer) ? d.dealer : d.button;
    if (!isSeat(dealer)) return fill(t("Hand %(number)s begins"), { number: d.hand_no });
    return fill(t("Hand %(number)s: %(player)s deals"), { number: d.hand_no, player: ctx.playerName(dealer) });
  },
  HandEnded: (e, d, ctx) => {
    const { t, nt } = ctx;
    if (d.outcome === "played" && d.maker_tricks != null) {
      return fill(nt("Hand %(number)s is over: the makers took %(count)s trick", "Hand %(number)s is over: the makers took %(count)s tricks", d.maker_tricks), { number: d.hand_no });
    }
    if (d.outcome === "redeal" || d.outcome === "thrown_in") {
      return fill(t("Hand %(number)s is thrown in: a new deal"), { number: d.hand_no });
    }
    return fill(t("Hand %(number)s is over"), { number: d.hand_no });
  },

  // The widow games (La Viuda, Whiskey Poker).
  GameStarted: (e, d, ctx) => {
    const { t, nt } = ctx;
    if (d.scoring === "points") return [t("The match begins: the best hand of each deal scores a point")];
    if (d.scoring === "loser_pays") return fill(nt("The match begins with %(count)s life each", "The match begins with %(count)s lives each", d.chips), {});
    const chips = d.chips_per_player ?? d.chips;
    if (chips == null) return [t("The game begins")];
    return fill(nt("The game begins with %(count)s chip each", "The game begins with %(count)s chips each", chips), {});
  },
  AntesPaid: (e, d, ctx) =>
    fill(ctx.nt("%(players)s ante one chip each: %(count)s chip in the pot", "%(players)s ante one chip each: %(count)s chips in the pot", d.pot), { players: names(d.seats, ctx) }),
  Passed: (e, d, ctx, p) => late(fill(ctx.t("%(player)s passes"), { player: p }), d.timed_out, ctx),
  Knocked: (e, d, ctx, p) => {
    const { t } = ctx;
    if (d.forced) return late(fill(t("%(player)s must knock"), { player: p }), d.timed_out, ctx);
    return late(fill(t("%(player)s knocks"), { player: p }), d.timed_out, ctx);
  },
  WidowTaken: (e, d, ctx, p) => {
    const { t } = ctx;
    if (d.gave && d.gave.length) return fill(t("%(player)s takes the widow and lays down %(cards)s"), { player: p, cards: cards(d.gave, ctx) });
    return fill(t("%(player)s takes the widow"), { player: p });
  },
  WidowTurnedUp: (e, d, ctx) => fill(ctx.t("The widow is turned face up: %(cards)s"), { cards: cards(d.cards, ctx) }),
  HandExchanged: (e, d, ctx, p) =>
    fill(ctx.t("%(player)s swaps the whole hand: gives %(given)s, takes %(taken)s"), { player: p, given: cards(d.gave, ctx), taken: cards(d.took, ctx) }),
  CardExchanged: (e, d, ctx, p) =>
    fill(ctx.t("%(player)s gives %(given)s and takes %(taken)s"), { player: p, given: ctx.cardElement(d.gave), taken: ctx.cardElement(d.took) }),
  ShowdownHeld: (e, d, ctx) => {
    const { t, nt } = ctx;
    if (isSeat(d.loser)) return fill(t("The hands are shown: %(player)s has the worst hand"), { player: ctx.playerName(d.loser) });
    if (d.best && d.best.length) {
      return fill(nt("The hands are shown: %(players)s has the best hand", "The hands are shown: %(players)s have the best hand", d.best.length), { players: names(d.best, ctx) });
    }
    return [t("The hands are shown")];
  },
  WorstHandPaid: (e, d, ctx, p) =>
    fill(ctx.nt("%(player)s pays a chip into the pot: %(count)s chip left", "%(player)s pays a chip into the pot: %(count)s chips left", d.chips_left), { player: p }),
  WidowOffered: (e, d, ctx, p) => {
    const { t } = ctx;
    if (d.price != null) return fill(t("%(player)s may buy the widow for %(price)s"), { player: p, price: money(d.price, ctx) });
    return fill(t("%(player)s may buy the widow"), { player: p });
  },
  WidowBought: (e, d, ctx, p) => fill(ctx.t("%(player)s buys the widow"), { player: p }),
  WidowDeclined: (e, d, ctx, p) => {
    const { t } = ctx;
    const why = { expired: t("time ran out"), cannot_afford: t("not enough money"), away: t("away from the table") }[d.reason];
    if (why) return fill(t("%(player)s does not buy the widow (%(reason)s)"), { player: p, reason: why });
    return fill(t("%(player)s does not buy the widow"), { player: p });
  },
  PlayerEliminated: (e, d, ctx, p) => {
    const { t } = ctx;
    if (d.place != null) return fill(t("%(player)s is out of the game, in place %(place)s"), { player: p, place: d.place });
    return fill(t("%(player)s is out of the game"), { player: p });
  },
  PotAwarded: (e, d, ctx) =>
    (d.shares || []).flatMap(([seat, chips], index) => [
      index ? "; " : "",
      ...fill(ctx.nt("%(player)s takes %(count)s chip from the pot", "%(player)s takes %(count)s chips from the pot", chips), { player: ctx.playerName(seat) }),
    ]).filter((part) => part !== ""),
  LosersPaid: (e, d, ctx) =>
    fill(ctx.nt("%(players)s has the worst hand and pays a chip", "%(players)s have the worst hand and pay a chip each", (d.seats || []).length), { players: names(d.seats, ctx) }),
  PointsScored: (e, d, ctx) =>
    fill(ctx.nt("%(players)s scores a point", "%(players)s score a point each", (d.seats || []).length), { players: names(d.seats, ctx) }),
  PlayerCashedOut: (e, d, ctx, p) =>
    fill(ctx.nt("%(player)s cashes out %(count)s chip", "%(player)s cashes out %(count)s chips", d.chips), { player: p }),
  MatchEndRequested: (e, d, ctx) => [ctx.t("The owner ends the match after this hand")],
  GameEnded: (e, d, ctx) => {
    const { t, nt } = ctx;
    if (isSeat(d.winner)) return fill(t("%(player)s wins the game"), { player: ctx.playerName(d.winner) });
    if (d.winners && d.winners.length) {
      return fill(nt("The match is over: %(players)s wins", "The match is over: %(players)s win", d.winners.length), { players: names(d.winners, ctx) });
    }
    return [t("The match is over")];
  },

  // Euchre.
  MatchStarted: (e, d, ctx) => {
    const { t } = ctx;
    if (isSeat(d.dealer)) return fill(t("The match begins: %(player)s deals first"), { player: ctx.playerName(d.dealer) });
    return [t("The match begins")];
  },
  DealPatternChosen: (e, d, ctx, p) => fill(ctx.t("%(player)s deals in packets of %(pattern)s"), { player: p, pattern: d.pattern }),
  ClaimDeclined: (e, d, ctx, p) => fill(ctx.t("%(player)s keeps the hand"), { player: p }),
  FarmersHandSwapped: (e, d, ctx, p) => fill(ctx.t("%(player)s shows a farmer's hand (%(cards)s) and swaps three cards"), { player: p, cards: cards(d.shown, ctx) }),
  AceNoFaceDeclared: (e, d, ctx, p) => fill(ctx.t("%(player)s shows an ace and no face card (%(cards)s): a new deal"), { player: p, cards: cards(d.shown, ctx) }),
  TrumpMade: (e, d, ctx, p) => {
    const { t } = ctx;
    const suit = suitWords(d.suit, t);
    if (!suit) return fill(d.alone ? t("%(player)s calls no trump and goes alone") : t("%(player)s calls no trump"), { player: p });
    return fill(d.alone ? t("%(player)s makes %(suit)s trump and goes alone") : t("%(player)s makes %(suit)s trump"), { player: p, suit });
  },
  DealerDiscarded: (e, d, ctx, p) => {
    const { t } = ctx;
    if (d.card) return fill(t("%(player)s discards %(card)s"), { player: p, card: ctx.cardElement(d.card) });
    return fill(t("%(player)s discards a card face down"), { player: p });
  },
  CardPlayed: (e, d, ctx, p) => fill(ctx.t("%(player)s plays %(card)s"), { player: p, card: ctx.cardElement(d.card) }),
  TrickTaken: (e, d, ctx) => fill(ctx.t("%(player)s takes trick %(number)s"), { player: ctx.playerName(d.winner), number: d.trick_no }),
  MatchWon: (e, d, ctx) =>
    fill(ctx.nt("%(players)s wins the match", "%(players)s win the match", (d.winners || []).length), { players: names(d.winners, ctx) }),

  // Five-Card Draw.
  TableStarted: (e, d, ctx) => [d.format === "tournament" ? ctx.t("The tournament begins") : ctx.t("The table begins")],
  ForcedBetsPosted: (e, d, ctx) => {
    const { nt } = ctx;
    const total = (d.posts || []).reduce((sum, post) => sum + post[1], 0);
    if (d.kind === "blinds") return fill(nt("The blinds are posted: %(count)s chip", "The blinds are posted: %(count)s chips", total), {});
    return fill(nt("The antes are posted: %(count)s chip", "The antes are posted: %(count)s chips", total), {});
  },
  CardsDealt: (e, d, ctx) => {
    const { t } = ctx;
    const up = (d.face_up || []).flat().filter(Boolean);
    if (up.length) return fill(t("The cards are dealt; face up: %(cards)s"), { cards: cards(up, ctx) });
    return [t("The cards are dealt")];
  },
  PlayerActed: (e, d, ctx, p) => {
    const { t, nt } = ctx;
    const said = {
      fold: () => fill(t("%(player)s folds"), { player: p }),
      check: () => fill(t("%(player)s checks"), { player: p }),
      call: () => fill(nt("%(player)s calls %(count)s chip", "%(player)s calls %(count)s chips", d.chips), { player: p }),
      bet: () => fill(nt("%(player)s bets %(count)s chip", "%(player)s bets %(count)s chips", d.chips), { player: p }),
      raise: () => fill(nt("%(player)s raises to %(count)s chip", "%(player)s raises to %(count)s chips", d.to), { player: p }),
      all_in: () => fill(nt("%(player)s goes all in with %(count)s chip", "%(player)s goes all in with %(count)s chips", d.chips), { player: p }),
    }[d.action];
    return late(said ? said() : fill(t("%(player)s acts"), { player: p }), d.timeout, ctx);
  },
  StockReshuffled: (e, d, ctx) =>
    fill(ctx.nt("The discards are shuffled into a new stock of %(count)s card", "The discards are shuffled into a new stock of %(count)s cards", d.size), {}),
  CardsDrawn: (e, d, ctx, p) => {
    const { t, nt } = ctx;
    let said;
    if (d.shown_ace) said = fill(nt("%(player)s shows %(card)s and draws %(count)s card", "%(player)s shows %(card)s and draws %(count)s cards", d.count), { player: p, card: ctx.cardElement(d.shown_ace) });
    else if (!d.count) said = fill(t("%(player)s stands pat"), { player: p });
    else said = fill(nt("%(player)s draws %(count)s card", "%(player)s draws %(count)s cards", d.count), { player: p });
    return late(said, d.timeout, ctx);
  },
  HandPassed: (e, d, ctx) =>
    fill(ctx.nt("Nobody opens: the pot of %(count)s chip carries over", "Nobody opens: the pot of %(count)s chips carries over", d.pot), {}),
  PotsAwarded: (e, d, ctx) =>
    (d.shares || []).flatMap((share, index) => [
      index ? "; " : "",
      ...fill(ctx.nt("%(player)s wins %(count)s chip", "%(player)s wins %(count)s chips", share.chips), { player: ctx.playerName(share.seat) }),
    ]).filter((part) => part !== ""),
  LeaveRequested: (e, d, ctx, p) => fill(ctx.t("%(player)s leaves after this hand"), { player: p }),
  PlayerLeft: (e, d, ctx, p) =>
    fill(ctx.nt("%(player)s leaves the table with %(count)s chip", "%(player)s leaves the table with %(count)s chips", d.chips), { player: p }),
  ChipsToppedUp: (e, d, ctx, p) =>
    fill(ctx.nt("%(player)s tops up with %(count)s chip", "%(player)s tops up with %(count)s chips", d.chips), { player: p }),
  TableEndRequested: (e, d, ctx) => [ctx.t("The owner ends the table after this hand")],
  TableEnded: (e, d, ctx) => {
    const { t, nt } = ctx;
    if (d.winners && d.winners.length) {
      return fill(nt("The table is over: %(players)s wins", "The table is over: %(players)s win", d.winners.length), { players: names(d.winners, ctx) });
    }
    return [t("The table is over")];
  },

  // Guerra Chevichona.
  ThrowSent: (e, d, ctx, p) => late(fill(ctx.t("%(player)s throws"), { player: p }), d.by_timeout, ctx),
  CardsThrown: (e, d, ctx, p) => fill(ctx.t("%(player)s throws %(cards)s"), { player: p, cards: cards(d.cards, ctx) }),
  PlayerOut: (e, d, ctx, p) => {
    const { t } = ctx;
    const why = {
      short: t("too few cards to throw"),
      no_extra: t("no extra card for the tie"),
      no_battle_cards: t("no card for the battle"),
      left: t("left the table"),
      no_cards: t("no cards left"),
    }[d.reason];
    if (why) return fill(t("%(player)s is out (%(reason)s)"), { player: p, reason: why });
    return fill(t("%(player)s is out of the game"), { player: p });
  },
  AmbushMade: (e, d, ctx) => fill(ctx.t("Ambush by %(players)s"), { players: names(d.seats, ctx) }),
  SkirmishPlayed: (e, d, ctx) =>
    fill(ctx.t("Skirmish %(number)s: %(card)s is highest, by %(players)s"), { number: d.skirmish, card: ctx.cardElement(d.card), players: names(d.seats, ctx) }),
  BattleCardsLaid: (e, d, ctx, p) =>
    fill(ctx.nt("%(player)s lays %(count)s card face down and %(card)s face up", "%(player)s lays %(count)s cards face down and %(card)s face up", d.down_count), { player: p, card: ctx.cardElement(d.face_up) }),
  BattleGrew: (e, d, ctx) =>
    fill(ctx.t("The battle of skirmish %(number)s goes on: %(players)s tie again"), { number: d.skirmish, players: names(d.seats, ctx) }),
  BattleWon: (e, d, ctx, p) => {
    const { t } = ctx;
    if (d.by_draw) return fill(t("%(player)s wins the battle of skirmish %(number)s by lot"), { player: p, number: d.skirmish });
    return fill(t("%(player)s wins the battle of skirmish %(number)s"), { player: p, number: d.skirmish });
  },
  ExtraCardThrown: (e, d, ctx, p) => fill(ctx.t("%(player)s throws an extra card: %(card)s"), { player: p, card: ctx.cardElement(d.card) }),
  StalemateDrawn: (e, d, ctx, p) => fill(ctx.t("Drawn by lot among %(players)s: %(player)s"), { player: p, players: names(d.seats, ctx) }),
  RoundTaken: (e, d, ctx, p) =>
    fill(ctx.nt("%(player)s takes round %(number)s: %(count)s card", "%(player)s takes round %(number)s: %(count)s cards", d.count), { player: p, number: d.round_no }),
  PileShuffled: (e, d, ctx, p) => fill(ctx.t("%(player)s's pile is shuffled"), { player: p }),
  ForfeitsTaken: (e, d, ctx, p) =>
    fill(ctx.nt("%(player)s takes %(count)s card left by the players out", "%(player)s takes %(count)s cards left by the players out", d.count), { player: p }),
  MatchEnded: (e, d, ctx) => {
    const { t, nt } = ctx;
    if (d.winners && d.winners.length) {
      return fill(nt("The match is over: %(players)s wins", "The match is over: %(players)s win", d.winners.length), { players: names(d.winners, ctx) });
    }
    return [t("The match is over")];
  },
};

// The sentence of an event: text and card elements, in order.
export function eventSentence(event, ctx) {
  const data = event.data || {};
  const player = subject(event, ctx);
  const said = SENTENCES[event.type];
  if (said) {
    try {
      return said(event, data, ctx, player ?? ctx.t("the table"));
    } catch {
      // An older or odder record than this page knows: the generic sentence below.
    }
  }
  return player != null ? fill(ctx.t("%(player)s acts"), { player }) : [ctx.t("Something happens at the table")];
}

// The event as a line of #events: <li data-seq data-type>#12 Ana knocks</li>.
export function eventLine(event, ctx) {
  const line = document.createElement("li");
  line.dataset.seq = event.seq;
  line.dataset.type = event.type;
  line.append(`#${event.seq} `, ...eventSentence(event, ctx));
  return line;
}
