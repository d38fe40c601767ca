"""kamil's engine from Python: legal moves, limits, callbacks, threads."""

import threading
import time

import pytest

import kamil


def test_search_returns_a_legal_move_and_its_line():
    e = kamil.Engine(hash_mb=8)
    for name in ("courier", "sho-shogi", "chu-shogi", "tamerlane"):
        pos = kamil.Position(name)
        r = e.search(pos, depth=3)
        assert r.best in pos.legal_moves()
        assert r.pv and r.pv[0] == r.best
        assert r.depth == 3
        assert r.nodes > 0
        assert (r.score_cp is None) != (r.mate is None)
        # The position searched is unchanged.
        assert pos.fen() == pos.start_fen


def test_two_search_threads_and_new_game():
    e = kamil.Engine(hash_mb=4, threads=2)
    assert (e.hash_mb, e.threads) == (4, 2)
    pos = kamil.Position("hiashatar")
    r = e.search(pos, depth=4)
    assert r.best in pos.legal_moves()
    e.new_game()
    assert e.search(pos, nodes=2000).best in pos.legal_moves()


def test_search_finds_a_mate_in_one():
    pos = kamil.Position("courier", "k11/12/12/12/12/P1r9/r11/11K b - - 0 1")
    r = kamil.Engine(hash_mb=1).search(pos, depth=4)
    assert r.mate == 1
    after = pos.copy()
    after.push(r.best)
    assert after.outcome() is not None and after.outcome().winner == 1


def test_search_of_a_finished_game_has_no_move():
    pos = kamil.Position("courier", "k11/12/12/12/12/P11/r11/1r9K w - - 0 1")
    r = kamil.Engine(hash_mb=1).search(pos, depth=3)
    assert r.best is None and r.pv == []


def test_movetime_stops_on_time_and_nodes_bound_the_search():
    e = kamil.Engine(hash_mb=8)
    pos = kamil.Position("chu-shogi")
    t = time.monotonic()
    r = e.search(pos, movetime=300)
    elapsed = time.monotonic() - t
    assert r.best in pos.legal_moves()
    # The engine may end an iteration early when the next cannot finish in
    # time; it never runs much past the time given.
    assert r.depth >= 1 and elapsed < 0.3 + 0.5, elapsed
    r = e.search(pos, nodes=3000)
    assert r.nodes < 3000 + 10000


def test_the_callback_gets_every_iteration_and_can_stop_the_search():
    e = kamil.Engine(hash_mb=8)
    pos = kamil.Position("courier")
    seen = []
    r = e.search(pos, depth=5, callback=seen.append)
    assert [i.depth for i in seen] == [1, 2, 3, 4, 5]
    assert all(isinstance(i, kamil.SearchInfo) and i.pv for i in seen)
    assert seen[-1].pv[0] == r.best

    def fail(info):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        e.search(pos, depth=30, callback=fail)


def test_stop_from_another_thread():
    e = kamil.Engine(hash_mb=8)
    pos = kamil.Position("chu-shogi")
    timer = threading.Timer(0.3, e.stop)
    t = time.monotonic()
    timer.start()
    r = e.search(pos, movetime=20000)
    assert time.monotonic() - t < 5.0
    assert r.best in pos.legal_moves()


def test_two_searches_run_at_once_in_two_threads():
    results = {}
    movetime = 600

    def run(name):
        pos = kamil.Position(name)
        r = kamil.Engine(hash_mb=8).search(pos, movetime=movetime)
        results[name] = (r.best in pos.legal_moves(), r)

    threads = [threading.Thread(target=run, args=(n,)) for n in ("courier", "sho-shogi")]
    t = time.monotonic()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    elapsed = time.monotonic() - t
    assert all(ok for ok, _ in results.values()), results
    # With the GIL held they would take two movetimes one after the other.
    assert elapsed < 1.6 * movetime / 1000, elapsed


def _within(seconds, f):
    """f() on a daemon thread: its result, or a failure after `seconds`
    (a call that never returns must fail the test, not hang it)."""
    out = {}

    def run():
        try:
            out["value"] = f()
        except BaseException as e:  # handed to the test below
            out["error"] = e

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"no return within {seconds} s"
    if "error" in out:
        raise out["error"]
    return out["value"]


def test_a_search_from_its_own_callback_is_refused_not_hung():
    # Issue 47: this waited for itself for ever, and the engine with it.
    e = kamil.Engine(hash_mb=1)
    P = kamil.Position
    with pytest.raises(RuntimeError, match="busy"):
        _within(60, lambda: e.search(P("courier"), depth=3, callback=lambda i: e.search(P("courier"), depth=1)))
    refused = []

    def callback(info):
        with pytest.raises(RuntimeError, match="busy"):
            e.search(P("courier"), depth=1)
        with pytest.raises(RuntimeError, match="busy"):
            e.new_game()
        refused.append(info.depth)

    # Caught in the callback, the refusal leaves the outer search whole.
    r = _within(60, lambda: e.search(P("courier"), depth=3, callback=callback))
    assert r.depth == 3 and refused == [1, 2, 3]
    assert r.best in P("courier").legal_moves()
    # Usable after.
    assert _within(60, lambda: e.search(P("courier"), depth=2)).depth == 2
    e.new_game()


def test_eval_file_searches_with_a_network_and_a_bad_file_is_a_value_error(cli, tmp_path):
    # A tiny Courier network trained by `kamil train-net` on a few lines.
    start = kamil.Position("courier")
    lines = []
    for i, m in enumerate(start.legal_moves()[:12]):
        p = kamil.Position("courier")
        p.push(m)
        lines.append(f"{p.fen()};{1 if i % 3 else 0}")
    data = tmp_path / "data.txt"
    data.write_text("\n".join(lines) + "\n")
    net = tmp_path / "courier.nnue"
    cli.run("train-net", "courier", "--data", str(data), "--holdout", "0.25",
            "--hidden", "8", "--epochs", "2", "--batch", "4", "--out", str(net))
    e = kamil.Engine(hash_mb=4, eval_file=str(net))
    assert e.eval_file == str(net)
    assert "eval_file=" in repr(e)
    r = e.search(start, depth=3)
    assert r.best in start.legal_moves()
    default = kamil.Engine(hash_mb=4)
    assert default.eval_file is None and default.use_nnue
    d = default.search(start, depth=3)
    assert (r.nodes, r.score_cp) != (d.nodes, d.score_cp), "the network was not used"
    # use_nnue=False: the hand-written evaluation, not Courier's built-in net.
    hand = kamil.Engine(hash_mb=4, use_nnue=False)
    assert not hand.use_nnue and "use_nnue=False" in repr(hand)
    h = hand.search(start, depth=3)
    assert (h.nodes, h.score_cp) != (d.nodes, d.score_cp), "the built-in net was not used"
    assert h.best in start.legal_moves()
    with pytest.raises(ValueError, match="use_nnue"):
        kamil.Engine(eval_file=str(net), use_nnue=False)
    # Another game keeps its default evaluation.
    sho = kamil.Position("sho-shogi")
    assert e.search(sho, depth=2).best in sho.legal_moves()

    damaged = bytearray(net.read_bytes())
    damaged[-7] ^= 0x40
    bad = tmp_path / "damaged.nnue"
    bad.write_bytes(bytes(damaged))
    with pytest.raises(ValueError, match="damaged") as err:
        kamil.Engine(eval_file=str(bad))
    assert str(bad) in str(err.value)
    short = tmp_path / "short.nnue"
    short.write_bytes(net.read_bytes()[:40])
    with pytest.raises(ValueError, match="truncated"):
        kamil.Engine(eval_file=str(short))
    junk = tmp_path / "junk.nnue"
    junk.write_text("not a network")
    with pytest.raises(ValueError, match="not a kamil network file"):
        kamil.Engine(eval_file=str(junk))
    with pytest.raises(ValueError, match="missing.nnue"):
        kamil.Engine(eval_file=str(tmp_path / "missing.nnue"))


def test_a_skill_level_plays_legal_shallow_moves_and_a_bad_level_is_a_value_error():
    weak = kamil.Engine(hash_mb=8, skill=0)
    assert weak.skill == 0 and "skill=0" in repr(weak)
    assert kamil.Engine(hash_mb=8).skill == 20
    for name in ("courier", "chu-shogi", "tamerlane"):
        pos = kamil.Position(name)
        for _ in range(6):
            r = weak.search(pos, depth=6)
            assert r.best in pos.legal_moves()
            # Level 0 searches one ply whatever the depth asked.
            assert r.depth == 1
            pos.push(r.best)
    for bad in (21, -1, 300):
        with pytest.raises(ValueError, match=f"skill {bad}"):
            kamil.Engine(skill=bad)


def test_an_elo_plays_its_level_and_a_bad_elo_is_a_value_error():
    floor = kamil.Engine(hash_mb=8, elo=1000)
    assert floor.elo == 1000 and "elo=1000" in repr(floor)
    assert kamil.Engine(hash_mb=8).elo is None
    for name in ("courier", "chu-shogi", "sho-shogi"):
        pos = kamil.Position(name)
        for _ in range(4):
            r = floor.search(pos, depth=6)
            assert r.best in pos.legal_moves()
            # Elo 1000 is level 0 in every game: one ply.
            assert r.depth == 1
            pos.push(r.best)
    for bad in (999, -5, 10**12):
        with pytest.raises(ValueError, match=f"elo {bad}"):
            kamil.Engine(elo=bad)
    with pytest.raises(ValueError, match="not both"):
        kamil.Engine(skill=5, elo=1500)


def test_an_elo_above_a_games_ladder_plays_its_top_and_says_so():
    # Issue 80: UCI_Elo's range is the game's own ladder, as in UCI, USI
    # and XBoard; Python takes any game's Elo and warns in a game whose
    # ladder ends below it.
    ranges = {v["name"]: tuple(v["elo_range"]) for v in kamil.variants()}
    lo, chu_top = ranges["chu-shogi"]
    assert lo == 1000 and chu_top < max(hi for _, hi in ranges.values())
    high = kamil.Engine(hash_mb=8, elo=chu_top + 1)
    with pytest.warns(UserWarning, match=f"elo {chu_top + 1} is outside chu-shogi's range, 1000 to {chu_top}: playing at {chu_top}"):
        high.search(kamil.Position("chu-shogi"), depth=1)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert ranges["courier"][1] > chu_top
        high.search(kamil.Position("courier"), depth=1)
