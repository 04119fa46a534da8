"""The verdict line of a two-sided comparison, read from each side's passage (made-up passages)."""

from __future__ import annotations

from engine.reading.side_verdict import event_year, first_amount, first_place, side_verdict

HERON = "Heron is an English folk band formed in 1999 in Leeds, England."
SWIFT = "Swift is an American rock band formed in 1987 in Tulsa, Oklahoma."


def test_an_earlier_comparative_picks_the_side_with_the_earlier_year() -> None:
    verdict = side_verdict("Which band was formed earlier, Heron or Swift?", {"Heron": HERON, "Swift": SWIFT})
    assert verdict is not None and verdict.startswith("Swift (1987, against 1999 for Heron)")


def test_a_later_comparative_picks_the_later_year() -> None:
    verdict = side_verdict("Which band is younger, Heron or Swift?", {"Heron": HERON, "Swift": SWIFT})
    assert verdict is not None and verdict.startswith("Heron")


def test_a_comparison_of_ends_reads_the_end_of_a_span() -> None:
    sides = {"Ann Roe": "Ann Roe (May 7, 1890 \u2013 March 2, 1970) was a painter.",
             "Bo Lin": "Bo Lin (June 1, 1895 \u2013 July 9, 1951) was a poet."}  # fmt: skip
    verdict = side_verdict("Who died first, Ann Roe or Bo Lin?", sides)
    assert verdict is not None and verdict.startswith("Bo Lin (1951")


def test_a_more_comparative_picks_the_larger_amount_of_the_counted_thing() -> None:
    sides = {"Alpha": "Alpha is a genus of about 40 species of shrubs.", "Beta": "Beta is a genus of a single species."}
    verdict = side_verdict("Of the plant groups Alpha and Beta, which counts more species?", sides)
    assert verdict is not None and verdict.startswith("Alpha (40, against 1 for Beta)")


def test_a_fewer_comparative_picks_the_smaller_amount() -> None:
    sides = {"Alpha": "Alpha has 12 members.", "Beta": "Beta has 30 members."}
    verdict = side_verdict("Which club has fewer members, Alpha or Beta?", sides)
    assert verdict is not None and verdict.startswith("Alpha")


def test_no_verdict_when_a_side_states_no_amount_of_the_counted_thing() -> None:
    sides = {"Cal Dee": "Cal Dee (born January 14, 1966) is an actor.", "Di Fox": "Di Fox has collected four trophies."}
    assert side_verdict("Which of Cal Dee and Di Fox collected more trophies?", sides) is None


def test_same_place_is_answered_no_when_the_places_differ() -> None:
    verdict = side_verdict("Did Heron and Swift start out in the same town?", {"Heron": HERON, "Swift": SWIFT})
    assert verdict is not None and verdict.startswith("No: Leeds, England for Heron, Tulsa, Oklahoma for Swift")


def test_same_place_is_answered_yes_when_they_share_a_place() -> None:
    sides = {"Heron": HERON, "Wren": "Wren is a band formed in 2004 in Leeds."}
    verdict = side_verdict("Do Heron and Wren come from the same town?", sides)
    assert verdict is not None and verdict.startswith("Yes")


def test_same_year_compares_years() -> None:
    verdict = side_verdict("Were Heron and Swift founded in the same year?", {"Heron": HERON, "Swift": SWIFT})
    assert verdict == "No: 1999 for Heron, 1987 for Swift."


def test_both_is_yes_only_when_each_passage_says_the_property() -> None:
    sides = {"Heron": HERON, "Swift": SWIFT}
    assert side_verdict("Are Heron and Swift both bands?", sides) == "Yes: both passages say band."
    verdict = side_verdict("Are Heron and Swift both American bands?", sides)
    assert verdict == "Not shown for both: the passage on Heron does not say american."


def test_no_verdict_for_a_question_that_does_not_compare() -> None:
    assert side_verdict("What do Heron and Swift play?", {"Heron": HERON, "Swift": SWIFT}) is None
    assert side_verdict("Which band was formed earlier?", {"Heron": HERON}) is None


def test_readers_skip_years_days_and_the_side_name() -> None:
    assert event_year("formed in 1987 and renamed in 1990") == 1987
    assert first_amount("Studio 54 opened on March 3 with 200 seats", label="Studio 54") == 200
    assert first_amount("founded in 1950 with nine shops", noun={"shop"}) == 9
    assert first_place("born on May 2 in Porto, Portugal") == "Porto, Portugal"


def test_both_in_a_place_is_no_when_a_passage_places_a_side_elsewhere() -> None:
    sides = {"Acme Mill": "Acme Mill is a paper mill in Dayton, Ohio.",
             "Zenith Works": "Zenith Works is a foundry in Erie, Pennsylvania."}  # fmt: skip
    verdict = side_verdict("Are both Acme Mill and Zenith Works located in Ohio?", sides)
    assert verdict is not None and verdict.startswith("No: Zenith Works is in Erie, Pennsylvania"), verdict
    sides["Zenith Works"] = "Zenith Works is a foundry in Akron, Ohio."
    verdict = side_verdict("Are both Acme Mill and Zenith Works located in Ohio?", sides)
    assert verdict is not None and verdict.startswith("Yes"), verdict


def test_amounts_in_different_scales_compare_by_their_value() -> None:
    sides = {
        "dock fees": "Dock fees totaled $1.8 billion in 2041.",
        "fuel purchases": "Fuel purchases, 2041: $ (1,577) (table row: Fuel purchases | $ (1,577); columns: (Millions) | 2041)",
    }
    verdict = side_verdict("Which was larger in 2041: dock fees or fuel purchases?", sides)
    assert verdict is not None and verdict.startswith("dock fees")
    shares = {
        "Ferries": "Ferries carried 31% of riders (in millions of trips).",
        "Buses": "Buses carried 45% of riders.",
    }
    assert (side_verdict("Which carried more riders, Ferries or Buses?", shares) or "").startswith("Buses")


def test_an_amount_of_unknown_scale_is_not_set_against_one_in_billions() -> None:
    sides = {
        "dock fees": "Dock fees totaled $1.8 billion in 2041.",
        "fuel purchases": "Fuel purchases | (1,577) | (1,373)",
    }
    assert side_verdict("Which was larger in 2041: dock fees or fuel purchases?", sides) is None


def test_a_sentence_stating_the_comparison_outright_settles_it_whatever_its_first_figure() -> None:
    sides = {
        "inland pilots": "Among inland pilots, slightly more work nights (45%) than days (39%).",
        "harbour pilots": "Night-shift pay was rated fair more often by inland pilots than by harbour pilots (82% vs. 73%).",
    }
    verdict = side_verdict("Who rated night-shift pay fair more often, inland pilots or harbour pilots?", sides)
    assert verdict is not None and verdict.startswith("inland pilots"), verdict
    fewer = side_verdict("Who rated night-shift pay fair less often, inland pilots or harbour pilots?", sides)
    assert fewer is not None and fewer.startswith("harbour pilots"), fewer
