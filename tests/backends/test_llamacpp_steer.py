"""Steering further calls: where a value starts in a call, and which values get the bonus."""

from __future__ import annotations

from shim.backends.llamacpp_steer import (
    BONUS,
    COPY_BONUS,
    WRAP_UP_BONUS,
    WRAP_UP_TOKENS,
    Steer,
    _start_of,
    _string_value,
    _value_text,
)


class _Words:
    """A stand-in vocabulary with the embedded model's ``tokenize`` shape: one token per word."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}

    def tokenize(self, text: bytes, add_bos: bool = False, special: bool = False) -> list[int]:
        del add_bos, special
        return [self.ids.setdefault(word, len(self.ids)) for word in text.decode().split(" ") if word]

    def detokenize(self, tokens: list[int]) -> bytes:
        words = {i: w for w, i in self.ids.items()}
        return "".join(words.get(t, "") for t in tokens).encode()

    def n_vocab(self) -> int:
        return len(self.ids)

    def token_eos(self) -> int:
        return self.ids.setdefault("</s>", len(self.ids))


def _value_start(call: str) -> str | None:
    return _start_of(_value_text(call))


def test_a_value_starts_after_a_colon_an_array_s_opening_or_comma_and_inside_an_opening_quote() -> None:
    assert _value_start('{"name": "f", "arguments": {"n":') == "bare"
    assert _value_start('{"name": "f", "arguments": {"n": "') == "string"
    assert _value_start('{"name": "f", "arguments": {"n": ["a",') == "bare"
    assert _value_start('{"name": "f", "arguments": {"n": "a",') is None  # a key comes next
    assert _value_start('{"name":') is None  # the tool's name is no argument
    assert _value_start('{"name": "f", "arguments": {"n": "a') is None  # inside a value already


def test_a_further_call_is_steered_to_the_values_no_call_has_used_until_it_holds_one() -> None:
    words = _Words()
    steer = Steer(words, ("5", "10", "15"), opener="<function_call>", closer="</function_call>")
    steer.feed('<function_call>{"name": "f", "arguments": {"n": ')
    assert steer.bias == {}  # the first call is the model's own
    steer.feed('5}}</function_call>\n<function_call>{"name": "f", "arguments": {"n": ')
    assert steer.bias == {words.ids["10"]: BONUS, words.ids["15"]: BONUS}
    steer.feed("10")
    assert steer.bias == {}
    steer.feed('}}</function_call><function_call>{"name": "f", "arguments": {"n": ')
    assert steer.bias == {words.ids["15"]: BONUS}


def test_a_token_that_also_starts_a_used_value_gets_no_bonus() -> None:
    words = _Words()
    for token in ("6", "60"):
        words.ids[token] = 7  # one first token for both, as "6" and "60" share one in a real vocabulary
    steer = Steer(words, ("6", "80", "5.6", "60"), opener="<c>", closer="</c>")
    steer.feed('<c>{"name": "bmi", "arguments": {"h": 6, "w": 80}}</c><c>{"name": "bmi", "arguments": {"h":')
    assert steer.bias == {words.ids["5.6"]: BONUS}


def test_near_the_end_of_the_budget_a_call_is_wound_up_and_a_forced_reply_ends_between_calls() -> None:
    words = _Words()
    for piece in ('"', "]", "}}", "abc"):
        words.tokenize(piece.encode())
    steer = Steer(words, (), opener="<c>", closer="</c>", budget=WRAP_UP_TOKENS + 2)
    steer.feed('<c>{"name": "f", "arguments": {"s": "ab')
    assert steer.bias == {}  # the budget is not near its end yet
    steer.feed("ab")
    closing = {words.ids['"']: WRAP_UP_BONUS, words.ids["]"]: WRAP_UP_BONUS, words.ids["}}"]: WRAP_UP_BONUS}
    assert steer.bias == closing
    steer.feed('"}}</c>')
    assert steer.bias == {words.token_eos(): WRAP_UP_BONUS}


def test_near_the_end_of_the_budget_free_text_cannot_begin_a_call_that_could_not_end() -> None:
    words = _Words()
    for piece in ("<", "<c>", "c", "hello"):
        words.tokenize(piece.encode())
    steer = Steer(words, (), opener="<c>", closer="</c>", budget=WRAP_UP_TOKENS + 2, forced=False)
    steer.feed("hello")
    assert steer.bias == {}
    steer.feed("hello")
    assert steer.bias == {words.ids["<"]: -WRAP_UP_BONUS, words.ids["<c>"]: -WRAP_UP_BONUS}


def test_the_string_value_being_written_is_read_with_its_key_and_the_text_so_far() -> None:
    assert _string_value('{"name": "f", "arguments": {"loc": "Berke') == ("loc", "Berke")
    assert _string_value('{"name": "f", "arguments": {"a": 1, "unit": "') == ("unit", "")
    assert _string_value('{"name": "f", "arguments": {"repos": ["a/b", "c') == ("repos", "c")
    assert _string_value('{"name": "f", "arguments": {"lo') is None  # a key, not a value
    assert _string_value('{"name": "f') is None  # the tool's name is no argument
    assert _string_value('{"name": "f", "arguments": {"loc": "Berkeley"') is None  # closed


def test_a_string_value_that_starts_a_span_of_the_request_is_steered_to_copy_the_rest_of_it() -> None:
    words = _Words()
    words.tokenize(b", CA , Berkeley")
    request = "A ride from Berkeley, CA, and fast."
    steer = Steer(words, (), opener="<c>", closer="</c>", request=request)
    steer.feed('<c>{"name": "ride", "arguments": {"loc": "')
    assert steer.bias == {}  # no value begun, no choice named
    steer.feed("Berkeley")
    assert steer.bias == {words.ids[","]: COPY_BONUS}  # the tokens that begin ", CA"
    steer.feed(", CA")
    assert steer.bias == {}  # the span is whole: the model closes it as it likes


def test_a_value_under_a_key_whose_choices_the_request_names_is_steered_to_the_named_choice() -> None:
    words = _Words()
    words.tokenize(b"celsius fahrenheit")
    steer = Steer(words, (), opener="<c>", closer="</c>", choices=(("unit", ("fahrenheit",)),))
    steer.feed('<c>{"name": "weather", "arguments": {"location": "')
    assert steer.bias == {}  # another key
    steer.feed('Boston", "unit": "')
    assert steer.bias == {words.ids["fahrenheit"]: COPY_BONUS}


def test_a_further_call_s_value_that_starts_several_spans_is_steered_to_those_no_call_holds() -> None:
    words = _Words()
    words.tokenize(b"3rd 18th")
    steer = Steer(words, (), opener="<c>", closer="</c>", request="Fly on May 3rd, and on May 18th.")
    steer.feed('<c>{"name": "fly", "arguments": {"date": "May ')
    assert steer.bias == {words.ids["3rd"]: COPY_BONUS, words.ids["18th"]: COPY_BONUS}  # the model picks
    steer.feed('3rd"}}</c><c>{"name": "fly", "arguments": {"date": "May ')
    assert steer.bias == {words.ids["18th"]: COPY_BONUS}


def test_where_a_value_starts_or_is_being_written_it_is_read_with_its_key_and_whether_it_is_a_string() -> None:
    assert _value_text('{"name": "f", "arguments": {"n": ') == ("n", False, "")
    assert _value_text('{"name": "f", "arguments": {"n": 5.') == ("n", False, "5.")
    assert _value_text('{"name": "f", "arguments": {"n": 5 ') is None  # whole: a comma or a brace comes next
    assert _value_text('{"name": "f", "arguments": {"s": "To') == ("s", True, "To")
    assert _value_text('{"name": "f", "arguments": {"a": [1, ') == ("a", False, "")


def test_a_further_call_is_steered_to_write_each_argument_as_the_call_before_says() -> None:
    words = _Words()
    words.tokenize(b'"Tokyo Sydney " "Sydney 5.6 60')
    request = "Fly from Paris to Tokyo, then from Tokyo to Sydney."
    steer = Steer(words, (), opener="<c>", closer="</c>", request=request)
    steer.feed('<c>{"name": "fly", "arguments": {"from": "Paris", "to": "Tokyo"}}</c><c>{"name": "fly", ')
    steer.feed('"arguments": {"from": ')
    assert steer.bias == {words.ids['"']: COPY_BONUS, words.ids['"Tokyo']: COPY_BONUS}  # the quote, then Tokyo
    steer.feed('"Tokyo", "to": "')
    assert steer.bias == {words.ids["Sydney"]: COPY_BONUS}
    numbers = Steer(words, (), opener="<c>", closer="</c>", request="BMI of 6 ft 80 kg, and of 5.6 ft 60 kg")
    numbers.feed('<c>{"name": "bmi", "arguments": {"h": 6, "w": 80}}</c><c>{"name": "bmi", "arguments": {"h": ')
    assert numbers.bias == {words.ids["5.6"]: COPY_BONUS}


def test_a_forced_reply_is_steered_to_end_once_its_calls_hold_every_value_the_request_names() -> None:
    words = _Words()
    steer = Steer(words, (), opener="<c>", closer="</c>", request="The factorial of 5, 10 and 15.")
    steer.feed('<c>{"name": "f", "arguments": {"n": 10}}</c>')
    assert steer.bias == {}  # 5 and 15 are still to come
    steer.feed('<c>{"name": "f", "arguments": {"n": 15}}</c>')
    assert steer.bias == {}
    steer.feed('<c>{"name": "f", "arguments": {"n": 5}}</c>')
    assert steer.bias == {words.token_eos(): COPY_BONUS}
    lazy = Steer(words, (), opener="<c>", closer="</c>", request="The factorial of 15.", forced=False)
    lazy.feed('<c>{"name": "f", "arguments": {"n": 15}}</c>')
    assert lazy.bias == {}  # free text after a call: the model's own


class _Counted(_Words):
    """A vocabulary that counts how often its tokens are read."""

    def __init__(self, words: str) -> None:
        super().__init__()
        self.tokenize(words.encode())
        self.reads = 0

    def detokenize(self, tokens: list[int]) -> bytes:
        self.reads += 1
        return super().detokenize(tokens)


def test_two_models_loaded_at_once_each_read_their_vocabulary_once_whichever_is_steered() -> None:
    one, two = _Counted('a "} ]'), _Counted("b }} <f")
    sizes = (one.n_vocab(), two.n_vocab())
    for _ in range(3):  # alternating, as two models asked at once do
        for llm in (one, two):
            Steer(llm, ("a",), opener="<f>", closer="</f>", budget=8, forced=False, request="a b")
    assert (one.reads, two.reads) == sizes
    closing = {t for t, bonus in Steer(one, (), opener="<f>", closer="</f>", budget=8)._closing.items() if bonus}
    assert closing == {one.ids['"}'], one.ids["]"]}
