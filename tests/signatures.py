"""One tool per kind of signature the issue names, each with what a strict model sends,
what a non-strict model sends, and what the function must receive.

Annotations are strings here (``from __future__ import annotations``) and one names a
class defined at the bottom of the module, after the decorator ran.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import functools
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field
from typing_extensions import NotRequired, TypedDict

import toolhygiene as th

received: list[dict[str, Any]] = []
"""What each call's function received, in order."""


class Unit(str, enum.Enum):
    C = "C"
    F = "F"


class Address(BaseModel):
    """Where to ship."""

    street: str = Field(description="street and number")
    zip: str = Field(pattern=r"^\d{5}$", description="five digits")
    floor: int = 0


class Filters(TypedDict):
    tag: str
    limit: NotRequired[int]


@dataclass
class Window:
    start: datetime.date
    days: int = 1


@th.tool
def book(
    seats: Annotated[int, Field(description="seats to book", gt=0, le=9)],
    name: str = Field(description="who books"),
    note: str | None = None,
) -> str:
    """Book seats for a show."""
    received.append({"seats": seats, "name": name, "note": note})
    return "booked"


@th.tool
def google(city: str, days: int = 1, unit: Literal["C", "F"] = "C") -> str:
    """Forecast, Google style.

    Args:
        city: the city's name.
        days: how many days ahead.
        unit: the temperature unit.
    """
    received.append({"city": city, "days": days, "unit": unit})
    return "ok"


@th.tool
def numpy(amount: float, currency: str = "EUR") -> str:
    """Convert, NumPy style.

    Parameters
    ----------
    amount : float
        how much to convert.
    currency : str
        an ISO 4217 code.
    """
    received.append({"amount": amount, "currency": currency})
    return "ok"


@th.tool
def rest(query: str, limit: int = 10) -> str:
    """Search, reST style.

    :param query: words to look for.
    :param limit: most results.
    """
    received.append({"query": query, "limit": limit})
    return "ok"


@th.tool
async def fetch(url: str, retries: int = 0) -> str:
    """Fetch a page (async).

    Args:
        url: the address.
        retries: how often to try again.
    """
    received.append({"url": url, "retries": retries})
    return "ok"


@th.tool
def ship(to: Address, unit: Unit = Unit.C, filters: Filters | None = None,
         window: Window | None = None, tags: list[str] | None = None) -> str:
    """Ship to an address, with nested models, an enum, a TypedDict and a dataclass.

    Args:
        to: the destination.
        unit: the unit.
        filters: which items.
        window: when.
        tags: labels.
    """
    received.append({"to": to, "unit": unit, "filters": filters, "window": window,
                     "tags": tags})
    return "shipped"


@th.tool
def later(item: Parcel, count: int = 1) -> str:
    """Send a parcel (its class is defined at the bottom of the module).

    Args:
        item: the parcel.
        count: how many.
    """
    received.append({"item": item, "count": count})
    return "sent"


class Store:
    """A class with a method, a static method and a class method as tools."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    @th.tool
    def lookup(self, sku: str, exact: bool = True) -> str:
        """Look up a product.

        Args:
            sku: the product code.
            exact: match the code exactly.
        """
        received.append({"self": self.prefix, "sku": sku, "exact": exact})
        return f"{self.prefix}{sku}"

    @th.tool
    @staticmethod
    def price(sku: str) -> float:
        """Price of a product.

        Args:
            sku: the product code.
        """
        received.append({"sku": sku})
        return 9.5

    @th.tool
    @classmethod
    def stores(cls, city: str) -> list[str]:
        """Stores in a city.

        Args:
            city: the city.
        """
        received.append({"cls": cls.__name__, "city": city})
        return [city]


def _search(db: str, region: str, query: str, page: int = 1) -> str:
    """Search the catalogue.

    Args:
        db: the connection (bound, never shown).
        region: the region (bound, never shown).
        query: what to find.
        page: which page.
    """
    received.append({"db": db, "region": region, "query": query, "page": page})
    return "found"


search = th.tool(functools.partial(_search, "postgres://db", region="eu"))


class Translator:
    """Translate text."""

    def __call__(self, text: str, to: Literal["fr", "de"] = "fr") -> str:
        """Translate.

        Args:
            text: what to translate.
            to: the target language.
        """
        received.append({"text": text, "to": to})
        return text


translate = th.tool(Translator(), name="translate")


class Parcel(BaseModel):
    weight: float = Field(gt=0, description="kilograms")
    fragile: bool = False


@dataclasses.dataclass(frozen=True)
class Case:
    """A signature: the tool, a strict model's arguments, a non-strict model's arguments,
    and what the function receives from each."""

    tool: th.Tool[Any, Any]
    strict_args: dict[str, Any]
    loose_args: dict[str, Any]
    expected: dict[str, Any]


STORE = Store("S-")

CASES: dict[str, Case] = {
    "annotated": Case(book, {"seats": 2, "name": "Ada", "note": None},
                      {"seats": 2, "name": "Ada"},
                      {"seats": 2, "name": "Ada", "note": None}),
    "google": Case(google, {"city": "Paris", "days": None, "unit": "F"},
                   {"city": "Paris", "unit": "F"},
                   {"city": "Paris", "days": 1, "unit": "F"}),
    "numpy": Case(numpy, {"amount": 2.5, "currency": None}, {"amount": 2.5},
                  {"amount": 2.5, "currency": "EUR"}),
    "rest": Case(rest, {"query": "tea", "limit": 3}, {"query": "tea", "limit": 3},
                 {"query": "tea", "limit": 3}),
    "async": Case(fetch, {"url": "https://example.org", "retries": None},
                  {"url": "https://example.org"}, {"url": "https://example.org", "retries": 0}),
    "nested": Case(
        ship,
        {"to": {"street": "1 Main St", "zip": "75001", "floor": None}, "unit": None,
         "filters": {"tag": "red", "limit": None}, "window": {"start": "2024-05-01", "days": None},
         "tags": None},
        {"to": {"street": "1 Main St", "zip": "75001"}, "filters": {"tag": "red"},
         "window": {"start": "2024-05-01"}},
        {"to": Address(street="1 Main St", zip="75001"), "unit": Unit.C,
         "filters": {"tag": "red"}, "window": Window(datetime.date(2024, 5, 1)), "tags": None},
    ),
    "forward_ref": Case(later, {"item": {"weight": 1.5, "fragile": None}, "count": None},
                        {"item": {"weight": 1.5}},
                        {"item": Parcel(weight=1.5), "count": 1}),
    "method": Case(STORE.lookup, {"sku": "A1", "exact": None}, {"sku": "A1"},
                   {"self": "S-", "sku": "A1", "exact": True}),
    "staticmethod": Case(Store.price, {"sku": "A1"}, {"sku": "A1"}, {"sku": "A1"}),
    "classmethod": Case(Store.stores, {"city": "Lyon"}, {"city": "Lyon"},
                        {"cls": "Store", "city": "Lyon"}),
    "partial": Case(search, {"query": "tea", "page": None}, {"query": "tea"},
                    {"db": "postgres://db", "region": "eu", "query": "tea", "page": 1}),
    "callable": Case(translate, {"text": "hi", "to": None}, {"text": "hi"},
                     {"text": "hi", "to": "fr"}),
}

DESCRIPTIONS: dict[str, dict[str, str]] = {
    "annotated": {"seats": "seats to book", "name": "who books"},
    "google": {"city": "the city's name.", "days": "how many days ahead."},
    "numpy": {"amount": "how much to convert.", "currency": "an ISO 4217 code."},
    "rest": {"query": "words to look for.", "limit": "most results."},
    "async": {"url": "the address.", "retries": "how often to try again."},
    "nested": {"to": "the destination.", "tags": "labels."},
    "forward_ref": {"item": "the parcel.", "count": "how many."},
    "method": {"sku": "the product code.", "exact": "match the code exactly."},
    "staticmethod": {"sku": "the product code."},
    "classmethod": {"city": "the city."},
    "partial": {"query": "what to find.", "page": "which page."},
    "callable": {"text": "what to translate.", "to": "the target language."},
}
