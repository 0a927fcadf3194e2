"""Synthetic tool-use conversations for the tiny demo model, in English and Korean.

A `Sample` is one request with the call it should produce; `conversation` turns it into the OpenAI-style
messages (request, call, result, final answer) that `shim.prompting.render_messages` renders exactly as the
demo's agent loop will. The tool results come from the real `shim.demo.tools.DemoTools`.

The training and held-out sets are drawn from the same templates with different seeds; every held-out
request whose text also occurs in training is dropped, and a share of the key-value words only ever appear
in held-out requests, so the evaluation measures copying and not recall. Most training keys and values are
invented words (`invented_word`): with only a few dozen real ones the model learnt to recall a key it knew
rather than copy the one it was given, and failed on every word it had never seen.
"""

from __future__ import annotations

import json
import random
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from shim.demo.tools import DemoToolError, DemoTools

Lang = str  # "en" | "ko"


@dataclass(frozen=True)
class Sample:
    """One request and what a good model does with it."""

    lang: Lang
    request: str
    tool: str | None
    """None: a greeting the model answers without a tool."""
    arguments: dict[str, Any]
    answer_templates: tuple[str, ...]
    """Final answers; ``{r}`` is the tool's result text."""
    store: dict[str, str]
    """The key-value store before the call (kv_get needs something to read)."""


CITIES = [
    ("Seoul", "서울", "Asia/Seoul"), ("Busan", "부산", "Asia/Seoul"), ("Tokyo", "도쿄", "Asia/Tokyo"),
    ("Beijing", "베이징", "Asia/Shanghai"), ("Singapore", "싱가포르", "Asia/Singapore"),
    ("Bangkok", "방콕", "Asia/Bangkok"), ("Dubai", "두바이", "Asia/Dubai"), ("Delhi", "델리", "Asia/Kolkata"),
    ("London", "런던", "Europe/London"), ("Paris", "파리", "Europe/Paris"), ("Berlin", "베를린", "Europe/Berlin"),
    ("Madrid", "마드리드", "Europe/Madrid"), ("Moscow", "모스크바", "Europe/Moscow"),
    ("New York", "뉴욕", "America/New_York"), ("Chicago", "시카고", "America/Chicago"),
    ("Los Angeles", "로스앤젤레스", "America/Los_Angeles"), ("Toronto", "토론토", "America/Toronto"),
    ("Sydney", "시드니", "Australia/Sydney"), ("Cairo", "카이로", "Africa/Cairo"), ("UTC", "UTC", "UTC"),
]  # fmt: skip

UNIT_WORDS = {  # symbol -> (English words, Korean word)
    "km": (["km", "kilometers", "kilometres"], "킬로미터"), "m": (["m", "meters", "metres"], "미터"),
    "cm": (["cm", "centimeters"], "센티미터"), "mm": (["mm", "millimeters"], "밀리미터"),
    "mi": (["miles", "mi"], "마일"), "ft": (["feet", "ft"], "피트"), "in": (["inches", "in"], "인치"),
    "kg": (["kg", "kilograms"], "킬로그램"), "g": (["grams", "g"], "그램"), "lb": (["pounds", "lb"], "파운드"),
    "oz": (["ounces", "oz"], "온스"), "l": (["liters", "litres", "l"], "리터"),
    "ml": (["ml", "milliliters"], "밀리리터"), "gal": (["gallons", "gal"], "갤런"),
    "C": (["Celsius", "°C"], "섭씨"), "F": (["Fahrenheit", "°F"], "화씨"), "K": (["Kelvin"], "켈빈"),
}  # fmt: skip
UNIT_PAIRS = [("km", "mi"), ("mi", "km"), ("m", "ft"), ("ft", "m"), ("cm", "in"), ("in", "cm"), ("m", "cm"),
              ("km", "m"), ("mm", "in"), ("kg", "lb"), ("lb", "kg"), ("g", "oz"), ("oz", "g"), ("kg", "g"),
              ("l", "gal"), ("gal", "l"), ("ml", "l"), ("l", "ml"), ("C", "F"), ("F", "C"), ("C", "K"),
              ("K", "C")]  # fmt: skip

KV_WORDS = ["color", "city", "pet", "food", "team", "car", "song", "book", "code", "room", "door", "plan",
            "wifi", "name", "goal", "drink", "movie", "sport", "snack", "bank", "hotel", "flight", "gate",
            "seat", "train", "locker", "office", "server", "branch", "ticket", "lunch", "coffee"]  # fmt: skip
KV_VALUES = ["blue", "green", "red", "tiger", "pizza", "jazz", "Tokyo", "Paris", "apple", "river", "sunny",
             "42", "1234", "7", "B12", "A3", "blue sky", "north", "kimchi", "latte", "파란색", "고양이",
             "김치", "커피", "서울", "월요일", "Mondays", "orange", "silver", "maple", "delta", "omega"]  # fmt: skip
HELD_OUT_KV = ["garden", "piano", "wallet", "laptop", "violet", "rocket", "lemon", "cactus", "바다", "사과"]
"""Key-value words that never occur in training."""
INVENTED_SHARE = 0.65
"""Share of training key-value requests whose words are invented."""

_ONSETS = ["b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "z", "br", "ch",
           "cl", "dr", "fl", "gr", "pl", "sh", "sl", "st", "th", "tr", ""]  # fmt: skip
_VOWELS = ["a", "e", "i", "o", "u", "a", "e", "o", "ai", "ee", "oo", "ou", "y"]
_CODAS = ["", "", "", "n", "r", "l", "s", "t", "m", "ck", "ng", "x", "p", "d"]
_HANGUL = ("가나다라마바사아자차카타파하거너더러머버서어저처커터퍼허고노도로모보소오조초코토포호구누두루무부수우"
           "주추쿠투푸후기니디리미비시이지치키티피히과귀놀달별빛산숲열음장전정집창책초콩탑판학한해호화희")  # fmt: skip
"""Common syllables; invented Korean words stay within them so the vocabulary keeps one token per syllable."""

EN_CALC_OPS = {"+": ["plus", "added to"], "-": ["minus"], "*": ["times", "multiplied by"], "/": ["divided by"]}
KO_CALC_OPS = {"+": "더하기", "-": "빼기", "*": "곱하기", "/": "나누기"}


def _number(rng: random.Random, *, decimals: bool = True) -> int | float:
    if decimals and rng.random() < 0.15:
        return round(rng.uniform(0.1, 99), 1)
    return rng.choice([rng.randint(1, 20), rng.randint(2, 99), rng.randint(10, 999), rng.randint(100, 9999)])


def _calculate(rng: random.Random, lang: Lang) -> tuple[str, dict[str, Any], tuple[str, ...]]:
    a, b = _number(rng), _number(rng)
    op = rng.choice("+-*/")
    expression = f"{a} {op} {b}"
    kind = rng.random()
    if kind < 0.1:
        base, exponent = rng.randint(2, 12), rng.randint(2, 10)
        expression = f"{base} ** {exponent}"
        request = rng.choice(
            [f"What is {base} to the power of {exponent}?", f"Calculate {base}^{exponent}."]
            if lang == "en" else [f"{base}의 {exponent}제곱은?", f"{base}의 {exponent}제곱을 계산해 줘."]
        )  # fmt: skip
    elif kind < 0.2:
        percent, whole = rng.choice([5, 10, 15, 20, 25, 30, 40, 50, 75]), rng.randint(10, 2000)
        expression = f"{whole} * {percent} / 100"
        request = rng.choice(
            [f"What is {percent}% of {whole}?", f"How much is {percent} percent of {whole}?"]
            if lang == "en" else [f"{whole}의 {percent}%는 얼마야?", f"{whole}의 {percent}퍼센트를 계산해 줘."]
        )  # fmt: skip
    elif kind < 0.45:
        c = _number(rng, decimals=False)
        written = rng.choice([f"({a} {op} {b}) * {c}", f"{a} {op} {b} + {c}", f"{a}*{b}-{c}", f"{a}+{b}+{c}"])
        expression = written
        request = rng.choice(
            [f"Calculate {written}", f"What is {written}?", f"Please compute {written}.", f"Evaluate {written}"]
            if lang == "en" else [f"{written} 계산해 줘", f"{written}은 얼마야?", f"{written} 값을 구해 줘."]
        )  # fmt: skip
    elif lang == "en":
        word = rng.choice(EN_CALC_OPS[op])
        request = rng.choice([f"What is {a} {word} {b}?", f"What's {a} {word} {b}?", f"Calculate {a} {word} {b}.",
                              f"How much is {a} {word} {b}?", f"Can you work out {a} {word} {b}?",
                              f"what is {a}{op}{b}", f"Compute {a} {op} {b} for me."])  # fmt: skip
    else:
        word = KO_CALC_OPS[op]
        request = rng.choice([f"{a} {word} {b}는 얼마야?", f"{a} {word} {b}은?", f"{a} {word} {b} 계산해 줘.",
                              f"{a}{op}{b} 값이 뭐야?", f"{a} {op} {b}를 계산해 주세요."])  # fmt: skip
    answers = (
        ("The answer is {r}.", "It comes to {r}.", "{r}.", "The result is {r}.")
        if lang == "en" else ("답은 {r}입니다.", "계산 결과는 {r}입니다.", "{r}입니다.")
    )  # fmt: skip
    return request, {"expression": expression}, answers


def _get_time(rng: random.Random, lang: Lang) -> tuple[str, dict[str, Any], tuple[str, ...]]:
    en, ko, zone = rng.choice(CITIES)
    if lang == "en":
        place = zone if rng.random() < 0.15 and zone != "UTC" else en
        request = rng.choice([f"What time is it in {place}?", f"what's the time in {place}", f"Current time in {place}?",
                              f"Tell me the date and time in {place}.", f"What is today's date in {place}?",
                              f"Do you know what time it is in {place} right now?"])  # fmt: skip
        answers = (f"In {place} it is now {{r}}.", "It is {r} there.", f"The time in {place} is {{r}}.")
    else:
        request = rng.choice([f"{ko}은 지금 몇 시야?", f"{ko} 현재 시간 알려줘.", f"지금 {ko} 시간이 어떻게 돼?",
                              f"{ko}의 오늘 날짜와 시간은?", f"{ko} 지금 몇 시예요?"])  # fmt: skip
        answers = (f"{ko}은 지금 {{r}}입니다.", "현재 시각은 {r}입니다.", f"{ko}의 현재 시간은 {{r}}입니다.")
    return request, {"timezone": zone}, answers


def _convert(rng: random.Random, lang: Lang) -> tuple[str, dict[str, Any], tuple[str, ...]]:
    source, target = rng.choice(UNIT_PAIRS)
    value: int | float = rng.choice([rng.randint(1, 100), rng.randint(1, 1000), round(rng.uniform(0.5, 50), 1)])
    if source in "CFK" and rng.random() < 0.3:
        value = -value
    arguments = {"value": value, "from_unit": source, "to_unit": target}
    if lang == "en":
        a, b = rng.choice(UNIT_WORDS[source][0]), rng.choice(UNIT_WORDS[target][0])
        space = "" if a.startswith("°") else " "
        request = rng.choice([f"Convert {value}{space}{a} to {b}.", f"How many {b} is {value}{space}{a}?",
                              f"What is {value}{space}{a} in {b}?", f"{value}{space}{a} in {b} please",
                              f"Can you convert {value}{space}{a} into {b}?"])  # fmt: skip
        answers = (f"{value}{space}{a} is {{r}}.", "That is {r}.", "It comes to {r}.")
    else:
        a, b = UNIT_WORDS[source][1], UNIT_WORDS[target][1]
        if source in "CF" and target in "CF":
            request = rng.choice([f"{a} {value}도는 {b}로 몇 도야?", f"{a} {value}도를 {b}로 바꿔 줘."])
        else:
            request = rng.choice([f"{value}{a}는 몇 {b}야?", f"{value} {a}를 {b}로 바꿔 줘.",
                                  f"{value}{a}을 {b}로 변환해 줘.", f"{value} {a}는 {b}로 얼마예요?"])  # fmt: skip
        answers = ("{r}입니다.", "변환 결과는 {r}입니다.", f"{value} {a}는 {{r}}입니다.")
    return request, arguments, answers


def invented_word(rng: random.Random, lang: Lang) -> str:
    """A pronounceable made-up word (Hangul in most Korean requests, some English ones), free of `HELD_OUT_KV`."""
    while True:
        if rng.random() < (0.6 if lang == "ko" else 0.15):
            word = "".join(rng.choice(_HANGUL) for _ in range(rng.choice([1, 2, 2, 3])))
        else:
            syllables = rng.choice([1, 2, 2, 3])
            word = "".join(rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS) for _ in range(syllables))
            shape = rng.random()
            if shape < 0.1:
                word = word.capitalize()
            elif shape < 0.2:
                word += str(rng.randint(1, 99))
        if len(word) > 1 and not any(held in word for held in HELD_OUT_KV):
            return word


def _kv_set(rng: random.Random, lang: Lang, words: list[str]) -> tuple[str, dict[str, Any], tuple[str, ...]]:
    key = rng.choice(words) if rng.random() < 0.7 else f"{rng.choice(words)}_{rng.choice(words)}"
    value = rng.choice(words + KV_VALUES) if words is KV_WORDS else rng.choice(words)
    if lang == "en":
        request = rng.choice([f"Save {value} under the key {key}.", f"Store {key} = {value}", f"Set {key} to {value}.",
                              f"Remember {key}: {value}", f"Please remember that {key} is {value}.",
                              f"Put {value} in the store as {key}."])  # fmt: skip
        answers = ("Saved: {r}.", "Done, I stored {r}.", "OK, {r} is saved.")
    else:
        request = rng.choice([f"{key}에 {value} 저장해 줘.", f"{key} 값을 {value}로 설정해 줘.",
                              f"키 {key}에 {value}를 기억해 둬.", f"{value}를 {key}로 저장해 주세요."])  # fmt: skip
        answers = ("저장했습니다: {r}.", "{r}(으)로 저장했어요.", "완료: {r}.")
    return request, {"key": key, "value": value}, answers


def _kv_get(rng: random.Random, lang: Lang, words: list[str]) -> tuple[str, dict[str, Any], tuple[str, ...]]:
    key = rng.choice(words) if rng.random() < 0.7 else f"{rng.choice(words)}_{rng.choice(words)}"
    if lang == "en":
        request = rng.choice([f"What is stored under {key}?", f"Get the value of {key}.", f"What did I save as {key}?",
                              f"Look up {key} in the store.", f"Read {key} from the store please."])  # fmt: skip
        answers = (f"The value of {key} is {{r}}.", f"{key} is {{r}}.", "You saved {r}.")
    else:
        request = rng.choice([f"{key}에 저장된 값이 뭐야?", f"{key} 값 알려 줘.", f"저장소에서 {key}를 찾아 줘.",
                              f"{key}에 뭐라고 저장했지?"])  # fmt: skip
        answers = (f"{key}의 값은 {{r}}입니다.", "저장된 값은 {r}입니다.", "{r}입니다.")
    return request, {"key": key}, answers


def _chat(rng: random.Random, lang: Lang) -> tuple[str, tuple[str, ...]]:
    if lang == "en":
        request = rng.choice(["Hello!", "Hi there", "What can you do?", "Thanks!", "hey", "Who are you?"])
        return request, ("Hello! I can calculate, tell the time, convert units and remember values for you.",)
    request = rng.choice(["안녕하세요!", "안녕", "뭘 할 수 있어?", "고마워!", "누구세요?"])
    return request, ("안녕하세요! 계산, 시간 확인, 단위 변환, 값 저장을 도와드릴 수 있어요.",)


def sample(rng: random.Random, *, held_out: bool = False) -> Sample:
    """Draw one request; ``held_out`` draws key-value words from `HELD_OUT_KV` half of the time.

    Held-out draws consume the random stream exactly as before invented words were added, so the
    evaluation set is the same one earlier models were measured on.
    """
    lang = "en" if rng.random() < 0.5 else "ko"
    words = HELD_OUT_KV if held_out and rng.random() < 0.5 else KV_WORDS
    # Training leans a little more on the key-value tools: copying a word is the hardest thing it learns.
    kind = rng.choices(["calculate", "get_time", "convert_units", "kv_set", "kv_get", "chat"],
                       [30, 18, 24, 12, 12, 0] if held_out else [27, 16, 21, 16, 16, 4])[0]  # fmt: skip
    if not held_out and kind in ("kv_set", "kv_get") and rng.random() < INVENTED_SHARE:
        words = [invented_word(rng, lang) for _ in range(4)]
    store: dict[str, str] = {}
    if kind == "chat":
        request, answers = _chat(rng, lang)
        return Sample(lang, request, None, {}, answers, store)
    if kind == "kv_get":
        request, arguments, answers = _kv_get(rng, lang, words)
        store = {arguments["key"]: rng.choice(words + KV_VALUES if words is KV_WORDS else words)}
    else:
        make: Callable[..., tuple[str, dict[str, Any], tuple[str, ...]]] = {
            "calculate": _calculate, "get_time": _get_time, "convert_units": _convert, "kv_set": _kv_set,
        }[kind]  # fmt: skip
        request, arguments, answers = make(rng, lang, words) if kind == "kv_set" else make(rng, lang)
    return Sample(lang, request, kind, arguments, answers, store)


def run_tool(sample: Sample, now: datetime) -> tuple[str, bool]:
    """The tool's result text for the sample's expected call, and whether it is an error."""
    assert sample.tool is not None
    tools = DemoTools(now=now, store=dict(sample.store))
    args = dict(sample.arguments)
    if "timezone" in args:
        args["timezone_name"] = args.pop("timezone")
    try:
        return getattr(tools, sample.tool)(**args), False
    except DemoToolError as exc:
        return f"Error: {exc}", True


def random_instant(rng: random.Random) -> datetime:
    """A clock reading between 2024 and 2027, to the minute."""
    start = datetime(2024, 1, 1, tzinfo=timezone.utc)
    return start + timedelta(minutes=rng.randrange(3 * 365 * 24 * 60))


def conversation(sample: Sample, rng: random.Random) -> list[dict[str, Any]]:
    """The sample as OpenAI-style messages: request, call, result, final answer (or request, answer)."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": sample.request}]
    if sample.tool is None:
        return [*messages, {"role": "assistant", "content": rng.choice(sample.answer_templates)}]
    call_id = f"call_{rng.getrandbits(96):024x}"
    result, error = run_tool(sample, random_instant(rng))
    answer = f"Sorry, the tool failed: {result}" if error else rng.choice(sample.answer_templates).format(r=result)
    call = {"id": call_id, "type": "function",
            "function": {"name": sample.tool, "arguments": json.dumps(sample.arguments, ensure_ascii=False)}}  # fmt: skip
    return [
        *messages,
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": call_id, "name": sample.tool, "content": result, "is_error": error},
        {"role": "assistant", "content": answer},
    ]


def is_reserved(request: str) -> bool:
    """Whether a request text belongs to the held-out side (a fixed seventh of all possible texts).

    Some tools have few distinct requests (20 cities times a handful of phrasings), so a random draw for
    training would cover them all; reserving texts by hash keeps some of every kind for the evaluation.
    """
    return zlib.crc32(request.encode()) % 7 == 0


def split(seed: int, n_train: int, n_eval: int) -> tuple[list[Sample], list[Sample]]:
    """Training samples, and held-out samples whose request text never occurs in training."""
    rng = random.Random(seed)
    train: list[Sample] = []
    while len(train) < n_train:
        candidate = sample(rng)
        if not is_reserved(candidate.request):
            train.append(candidate)
    held_rng = random.Random(seed + 1_000_003)
    held: list[Sample] = []
    seen: set[str] = set()
    while len(held) < n_eval:
        candidate = sample(held_rng, held_out=True)
        if is_reserved(candidate.request) and candidate.request not in seen:
            seen.add(candidate.request)
            held.append(candidate)
    return train, held
