// @ts-check
/** The client's words in English, French and German. */

const WORDS = {
  en: {
    which_pawn: 'Several pawns can go there: choose which.', deadline: 'Deadline: {when} ({left} left)',
    time_left: 'Time left', away: 'on vacation', replay: 'Replay the game', invite: 'Invite', invited: '{name} is invited.',
    time_control: 'Time control', tc_none: 'none', tc_day: '1 day per move', tc_three_days: '3 days per move',
    tc_fischer: '3 days + 1 day per move (at most 7)', record_of: 'Record of game #{id}', step_of: 'Move {step} of {steps}',
    steps: 'Moves', the_deal: 'The deal', seen_by: 'Seen by', spectator: 'a spectator', hand_of: 'Hand of {name}',
    moves: 'Moves', time_out: 'Time out',
    name: 'Name', password: 'Password', login: 'Log in', register: 'Register', logout: 'Log out',
    lobby: 'Lobby', my_games: 'My games', open_games: 'Open games', new_game: 'New game',
    variant: 'Variant', players: 'Players', invite_only: 'Invitation only', rated: 'Rated',
    opponent_bot: 'Bot opponents', none: 'none', create: 'Create', join: 'Join', open: 'Open',
    nothing: 'Nothing here yet.', status_open: 'waiting for players', status_active: 'playing',
    status_over: 'over', status_cancelled: 'cancelled', status_aborted: 'aborted',
    your_turn: 'Your turn', turn_of: 'Turn of {name}', game_over: 'Game over',
    invitation: 'Invitation', left: '{left} left', next_game: 'Next game waiting for you: #{id}',
    offline: 'You are offline: what you see may be out of date, and moves wait until you are back.',
    push_enable: 'Notify me on this device', push_on: 'Notifications are on for this device.', push_denied: 'Notifications are blocked in this browser.',
    hand: 'Your hand', draw_pile: 'Draw pile: {n} cards', discard_piles: 'Discard piles',
    board: 'Board', rows: 'Rows', stones: 'Wish stones', tile_points: 'Tile points',
    choose: 'Choose what to do', choose_card: 'Choose a card from your hand',
    lay: 'Lay {card}', lay_to: 'Lay {card}: pawn {pawn} to {to}', lay_path: 'Lay {card} on the {path} path',
    discard: 'Discard {card}', step: 'Free step: pawn {pawn} to {to}', skip: 'Skip',
    discard_from_hand: 'Tile: discard {card}', discard_from_row: 'Tile: discard the last {color} card of your row',
    draw_deck: 'Draw from the deck', draw_pile_color: 'Draw from the {color} pile',
    take_stone: 'Take a wish stone with {cards}', pass: 'Pass', resign: 'Resign',
    confirm_resign: 'Resign this game?', stale: 'Someone else moved first: the game was reloaded.',
    winner: 'Winner', score: 'Score', seat: 'Seat', retired: 'left the game', hand_size: '{n} cards',
    big_pawn: 'big', end_card: 'end', back: 'Back to the lobby', live: 'Live',
    green: 'green', yellow: 'yellow', brown: 'brown', blue: 'blue', pink: 'pink', gray: 'gray',
    error: 'Something went wrong: {message}',
  },
  fr: {
    which_pawn: 'Plusieurs pions peuvent y aller : choisissez lequel.', deadline: 'Échéance : {when} (reste {left})',
    time_left: 'Temps restant', away: 'en vacances', replay: 'Revoir la partie', invite: 'Inviter', invited: '{name} est invité.',
    time_control: 'Cadence', tc_none: 'aucune', tc_day: '1 jour par coup', tc_three_days: '3 jours par coup',
    tc_fischer: '3 jours + 1 jour par coup (7 au plus)', record_of: 'Partie n° {id}', step_of: 'Coup {step} sur {steps}',
    steps: 'Coups', the_deal: 'La donne', seen_by: 'Vue de', spectator: 'un spectateur', hand_of: 'Main de {name}',
    moves: 'Coups', time_out: 'Temps écoulé',
    name: 'Nom', password: 'Mot de passe', login: 'Se connecter', register: "S'inscrire", logout: 'Se déconnecter',
    lobby: 'Salon', my_games: 'Mes parties', open_games: 'Parties ouvertes', new_game: 'Nouvelle partie',
    variant: 'Variante', players: 'Joueurs', invite_only: 'Sur invitation', rated: 'Classée',
    opponent_bot: 'Robots adversaires', none: 'aucun', create: 'Créer', join: 'Rejoindre', open: 'Ouvrir',
    nothing: 'Rien pour le moment.', status_open: 'en attente de joueurs', status_active: 'en cours',
    status_over: 'terminée', status_cancelled: 'annulée', status_aborted: 'abandonnée',
    your_turn: 'À vous de jouer', turn_of: 'Au tour de {name}', game_over: 'Partie terminée',
    invitation: 'Invitation', left: 'reste {left}', next_game: 'Partie suivante qui vous attend : #{id}',
    offline: 'Vous êtes hors ligne : ce que vous voyez peut être dépassé, et les coups attendent votre retour.',
    push_enable: 'M’avertir sur cet appareil', push_on: 'Les notifications sont activées sur cet appareil.', push_denied: 'Les notifications sont bloquées dans ce navigateur.',
    hand: 'Votre main', draw_pile: 'Pioche : {n} cartes', discard_piles: 'Défausses',
    board: 'Plateau', rows: 'Rangées', stones: 'Pierres à vœux', tile_points: 'Points de tuiles',
    choose: 'Choisissez votre action', choose_card: 'Choisissez une carte de votre main',
    lay: 'Poser {card}', lay_to: 'Poser {card} : pion {pawn} vers {to}', lay_path: 'Poser {card} sur le chemin {path}',
    discard: 'Défausser {card}', step: 'Pas gratuit : pion {pawn} vers {to}', skip: 'Passer',
    discard_from_hand: 'Tuile : défausser {card}', discard_from_row: 'Tuile : défausser la dernière carte {color} de votre rangée',
    draw_deck: 'Piocher', draw_pile_color: 'Prendre dans la défausse {color}',
    take_stone: 'Prendre une pierre à vœux avec {cards}', pass: 'Passer', resign: 'Abandonner',
    confirm_resign: 'Abandonner cette partie ?', stale: "Quelqu'un a joué avant vous : la partie a été rechargée.",
    winner: 'Gagnant', score: 'Score', seat: 'Place', retired: 'a quitté la partie', hand_size: '{n} cartes',
    big_pawn: 'grand', end_card: 'fin', back: 'Retour au salon', live: 'En direct',
    green: 'vert', yellow: 'jaune', brown: 'brun', blue: 'bleu', pink: 'rose', gray: 'gris',
    error: 'Une erreur est survenue : {message}',
  },
  de: {
    which_pawn: 'Mehrere Figuren können dorthin: wähle eine.', deadline: 'Frist: {when} (noch {left})',
    time_left: 'Restzeit', away: 'im Urlaub', replay: 'Partie nachspielen', invite: 'Einladen', invited: '{name} ist eingeladen.',
    time_control: 'Bedenkzeit', tc_none: 'keine', tc_day: '1 Tag pro Zug', tc_three_days: '3 Tage pro Zug',
    tc_fischer: '3 Tage + 1 Tag pro Zug (höchstens 7)', record_of: 'Partie Nr. {id}', step_of: 'Zug {step} von {steps}',
    steps: 'Züge', the_deal: 'Das Austeilen', seen_by: 'Sicht von', spectator: 'Zuschauer', hand_of: 'Hand von {name}',
    moves: 'Züge', time_out: 'Zeit abgelaufen',
    name: 'Name', password: 'Passwort', login: 'Anmelden', register: 'Registrieren', logout: 'Abmelden',
    lobby: 'Lobby', my_games: 'Meine Partien', open_games: 'Offene Partien', new_game: 'Neue Partie',
    variant: 'Variante', players: 'Spieler', invite_only: 'Nur auf Einladung', rated: 'Gewertet',
    opponent_bot: 'Bots als Gegner', none: 'keine', create: 'Anlegen', join: 'Beitreten', open: 'Öffnen',
    nothing: 'Noch nichts hier.', status_open: 'wartet auf Spieler', status_active: 'läuft',
    status_over: 'beendet', status_cancelled: 'abgesagt', status_aborted: 'abgebrochen',
    your_turn: 'Du bist am Zug', turn_of: '{name} ist am Zug', game_over: 'Partie beendet',
    invitation: 'Einladung', left: 'noch {left}', next_game: 'Nächste Partie, die auf dich wartet: #{id}',
    offline: 'Du bist offline: Was du siehst, kann veraltet sein, und Züge warten, bis du zurück bist.',
    push_enable: 'Auf diesem Gerät benachrichtigen', push_on: 'Benachrichtigungen sind auf diesem Gerät an.', push_denied: 'Benachrichtigungen sind in diesem Browser blockiert.',
    hand: 'Deine Hand', draw_pile: 'Nachziehstapel: {n} Karten', discard_piles: 'Ablagestapel',
    board: 'Spielplan', rows: 'Reihen', stones: 'Wunschsteine', tile_points: 'Plättchenpunkte',
    choose: 'Wähle deinen Zug', choose_card: 'Wähle eine Karte aus deiner Hand',
    lay: '{card} auslegen', lay_to: '{card} auslegen: Figur {pawn} nach {to}', lay_path: '{card} auf den Pfad {path} legen',
    discard: '{card} ablegen', step: 'Freier Schritt: Figur {pawn} nach {to}', skip: 'Auslassen',
    discard_from_hand: 'Plättchen: {card} ablegen', discard_from_row: 'Plättchen: letzte {color} Karte deiner Reihe ablegen',
    draw_deck: 'Vom Stapel ziehen', draw_pile_color: 'Vom {color} Ablagestapel ziehen',
    take_stone: 'Wunschstein nehmen mit {cards}', pass: 'Passen', resign: 'Aufgeben',
    confirm_resign: 'Diese Partie aufgeben?', stale: 'Jemand war schneller: die Partie wurde neu geladen.',
    winner: 'Sieger', score: 'Punkte', seat: 'Platz', retired: 'hat die Partie verlassen', hand_size: '{n} Karten',
    big_pawn: 'groß', end_card: 'Ende', back: 'Zurück zur Lobby', live: 'Live',
    green: 'grün', yellow: 'gelb', brown: 'braun', blue: 'blau', pink: 'rosa', gray: 'grau',
    error: 'Etwas ist schiefgegangen: {message}',
  },
};

/** @typedef {keyof typeof WORDS.en} Word */

let current = /** @type {'en' | 'fr' | 'de'} */ ('en');

/** The language kept in this browser, else the browser's own if we have it. */
export function initLanguage() {
  const kept = localStorage.getItem('keltis.lang') || navigator.language.slice(0, 2);
  setLanguage(kept);
  return current;
}

/** @param {string} lang */
export function setLanguage(lang) {
  current = lang === 'fr' || lang === 'de' ? lang : 'en';
  localStorage.setItem('keltis.lang', current);
  document.documentElement.lang = current;
}

/** A word, with `{name}` placeholders filled. @param {Word} key @param {Record<string, string | number>} [params] */
export function t(key, params = {}) {
  const text = WORDS[current][key] ?? WORDS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, p) => String(params[p] ?? ''));
}
