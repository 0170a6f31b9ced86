"""The offline model's grammar keeps a bounded integer in its bounds: llama.cpp's JSON-schema
grammar ignores minimum and maximum, so SmolLM2 wrote a confidence of 12 on a 1-10 scale and the
structured call failed validation. A small range becomes the list of its values."""

from pydantic import BaseModel, Field

from gateways.llm.providers.local import grammar_schema


class Stance(BaseModel):
    confidence: int = Field(ge=1, le=10)
    share: int = Field(gt=0, lt=4)
    count: int = Field(ge=0)  # open-ended: left as it is
    year: int = Field(ge=0, le=100_000)  # too many values to list: left as it is


class Ledger(BaseModel):
    stances: list[Stance]


def test_a_small_integer_range_becomes_the_list_of_its_values():
    properties = grammar_schema(Stance.model_json_schema())["properties"]

    assert properties["confidence"]["enum"] == list(range(1, 11))
    assert properties["share"]["enum"] == [1, 2, 3]
    assert "enum" not in properties["count"] and properties["count"]["minimum"] == 0
    assert "enum" not in properties["year"]


def test_nested_and_referenced_schemas_are_bounded_too():
    schema = Ledger.model_json_schema()

    bounded = grammar_schema(schema)

    assert bounded["$defs"]["Stance"]["properties"]["confidence"]["enum"] == list(range(1, 11))
    assert "enum" not in schema["$defs"]["Stance"]["properties"]["confidence"], "the caller's schema is unchanged"
