"""Plays through a running server with the Python client generated from openapi/keltis.json.

Usage: generated_client.py CLIENT_DIR BASE_URL
CLIENT_DIR holds the package openapi-python-client generated. Exits non-zero on any mismatch.
"""

import sys
import time

sys.path.insert(0, sys.argv[1])
BASE = sys.argv[2]

from keltis_server_api_client import AuthenticatedClient, Client  # noqa: E402
from keltis_server_api_client.api.accounts import register  # noqa: E402
from keltis_server_api_client.api.lobby import create_game, list_games  # noqa: E402
from keltis_server_api_client.api.play import (  # noqa: E402
    get_game,
    get_game_record,
    list_game_events,
    post_decision,
    resign_game,
)
from keltis_server_api_client.models import (  # noqa: E402
    Credentials,
    DecidedEvent,
    DecisionRequest,
    DrawDeck,
    GameDetail,
    GamePage,
    NewGame,
    BotName,
    ListGamesFilter,
    PlayPhase,
    Problem,
    Record,
    ResignedEnd,
    StartedEvent,
    Variant,
)

public = Client(base_url=BASE, raise_on_unexpected_status=True)
session = register.sync(
    client=public, body=Credentials(name="pyclient", password="correct horse battery")
)
assert not isinstance(session, Problem), session
client = AuthenticatedClient(
    base_url=BASE, token=session.access_token, raise_on_unexpected_status=True
)

game = create_game.sync(
    client=client,
    body=NewGame(variant=Variant.KELTIS, players=2, bots=[BotName.BOT_GREEDY]),
)
assert isinstance(game, GameDetail), game
page = list_games.sync(client=client, filter_=ListGamesFilter.MINE)
assert isinstance(page, GamePage) and any(g.id == game.id for g in page.games), page

# Play until a draw from the deck has happened, answering every turn with the first legal
# decision; every view, decision and event parses into its named type.
kinds = set()
played = 0
for _ in range(600):
    if played >= 20:
        break
    view = get_game.sync(id=game.id, client=client)
    assert isinstance(view, GameDetail), view
    if not view.state.legal_decisions:
        time.sleep(0.05)  # the bot's turn
        continue
    played += 1
    decision = view.state.legal_decisions[0]
    kinds.add(type(decision).__name__)
    answer = post_decision.sync(
        id=game.id,
        client=client,
        body=DecisionRequest(expected_version=view.version, decision=decision),
    )
    assert isinstance(answer, (GameDetail, Problem)), answer
assert played > 0, "never our turn"

events = list_game_events.sync(id=game.id, client=client)
assert isinstance(events, list) and events, events
assert any(isinstance(e, StartedEvent) for e in events), [type(e) for e in events]
assert any(isinstance(e, DecidedEvent) for e in events), [type(e) for e in events]

over = resign_game.sync(id=game.id, client=client)
assert isinstance(over, GameDetail), over
assert isinstance(over.state.result.end_reason, ResignedEnd), over.state.result
record = get_game_record.sync(id=game.id, client=client)
assert isinstance(record, Record), record

# A phase and a decision kind are named types, not numbered ones.
assert PlayPhase and DrawDeck
print("generated client: ok, decision kinds played:", sorted(kinds))
