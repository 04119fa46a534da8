"""Contact details: which kind a question asks for, and the values of that kind a text prints."""

from __future__ import annotations

import pytest

from engine.reading.contacts import asked_contact, contacts_in

LETTERHEAD = """Harbour Clinic, 12 Quay Road, Portsea
Tel: 01234 567890 Fax: 01234 567891
Out of hours, call our helpline on 0800 123 4567.
Visits rose from 2,018 in 2029 to 2 240 in 2030 2031; see the call log 2029 2030 2031.
(555) 201-3344 (the registrant's telephone number, including area code)
Write to care@harbour-clinic.example.org or see www.harbour-clinic.example.org/visits."""


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Which telephone no. should patients ring at the Harbour Clinic?", "telephone"),
        ("What is the phone number of the helpline?", "telephone"),
        ("What is the fax number of the clinic?", "fax"),
        ("What is the e-mail address on the second page?", "email"),
        ("Which website lists the visiting hours?", "web"),
        ("Does the clinic have a website?", None),  # asks whether, not for the address
        ("How many phones were sold in 2030?", None),  # a count of phones, not a number to call
    ],
)
def test_the_kind_of_detail_asked(question: str, kind: str | None) -> None:
    assert asked_contact(question) == kind


def test_a_telephone_number_is_a_grouped_number_after_its_cue_or_in_a_dialling_shape() -> None:
    found = [c.value for c in contacts_in(LETTERHEAD, "telephone")]
    assert found == ["01234 567890", "0800 123 4567", "(555) 201-3344"], found


def test_the_nearest_cue_decides_a_fax_from_a_telephone_number() -> None:
    assert [c.value for c in contacts_in(LETTERHEAD, "fax")] == ["01234 567891"]


def test_amounts_and_runs_of_years_are_not_numbers_to_call() -> None:
    values = [c.value for kind in ("telephone", "fax") for c in contacts_in(LETTERHEAD, kind)]  # type: ignore[arg-type]
    assert not any(v.startswith(("2 240", "2029", "2,018")) for v in values), values


def test_addresses_are_read_whole_with_their_line() -> None:
    email = contacts_in(LETTERHEAD, "email")
    web = contacts_in(LETTERHEAD, "web")
    assert [c.value for c in email] == ["care@harbour-clinic.example.org"]
    assert [c.value for c in web] == ["www.harbour-clinic.example.org/visits"]
    assert email[0].line.startswith("Write to care@")
