"""Request parsing for the game endpoints. Unknown fields are refused, never silently dropped."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext, gettext_lazy
from rest_framework import serializers

from api.parsers import is_whole_number

EVENTS_MAX_LIMIT = 500


class StrictSerializer(serializers.Serializer):
    """Refuses fields it does not know, so a typo is an error and not a silent default, and values
    of another JSON type than the document says: DRF's fields coerce (a number becomes a string,
    ``"7"`` an integer, ``"yes"`` a boolean), and what a client sends is what it meant."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict):
            raise serializers.ValidationError({"non_field_errors": [gettext("Expected a JSON object.")]})
        unknown = sorted(set(data) - set(self.fields))
        if unknown:
            raise serializers.ValidationError({name: [gettext("Unknown field.")] for name in unknown})
        wrong = {
            name: [wrong_type]
            for name, field in self.fields.items()
            if name in data and not field.read_only and (wrong_type := json_type_refusal(field, data[name]))
        }
        if not wrong:
            return super().to_internal_value(data)
        # The other fields are still checked, so one answer names everything wrong with the body.
        try:
            super().to_internal_value({name: value for name, value in data.items() if name not in wrong})
        except serializers.ValidationError as exc:
            if isinstance(exc.detail, dict):
                raise serializers.ValidationError({**exc.detail, **wrong}) from None
        raise serializers.ValidationError(wrong)


class NoBodySerializer(StrictSerializer):
    """The body of a write that takes none: nothing, or ``{}``; every field sent is unknown."""


def no_body(request: Any) -> None:
    """Refuse a body sent to a write that takes none (400 ``invalid``, each field named unknown),
    as every other write refuses a field it does not know, instead of ignoring it."""
    NoBodySerializer(data=request.data).is_valid(raise_exception=True)


def _json_kind(value: Any) -> str:
    """The JSON type of a parsed value, by the JSON spec's own name (not translated)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return {str: "string", list: "array", dict: "object"}.get(type(value), type(value).__name__)


def json_type_refusal(field: serializers.Field, value: Any) -> str | None:
    """Why ``value`` is not of the JSON type ``field`` documents, or ``None`` when it is (a null is
    left to the field, which knows whether it allows one)."""
    if value is None:
        return None
    kind = {"kind": _json_kind(value)}
    if isinstance(field, serializers.BooleanField):
        return None if isinstance(value, bool) else gettext("Must be true or false, not a JSON %(kind)s.") % kind
    if isinstance(field, serializers.IntegerField):
        whole = isinstance(value, int) and not isinstance(value, bool)
        return None if whole else gettext("Must be a whole number, not a JSON %(kind)s.") % kind
    if isinstance(field, serializers.FloatField):
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        return None if number else gettext("Must be a number, not a JSON %(kind)s.") % kind
    textual = isinstance(field, serializers.CharField) or (
        isinstance(field, serializers.ChoiceField) and all(isinstance(c, str) for c in field.choices)
    )
    if textual and not isinstance(value, str):
        return gettext("Must be a string, not a JSON %(kind)s.") % kind
    return None


class RegisterSerializer(StrictSerializer):
    username = serializers.RegexField(
        r"^[A-Za-z0-9_.-]{3,30}$", error_messages={"invalid": gettext_lazy("3 to 30 letters, digits, '_', '.' or '-'.")}
    )
    password = serializers.CharField(write_only=True, min_length=8, max_length=128)
    email = serializers.EmailField(required=False, allow_blank=True)
    device = serializers.CharField(required=False, allow_blank=True, max_length=100, default="")

    def validate_username(self, value: str) -> str:
        if get_user_model().objects.filter(username__iexact=value).exists():
            raise serializers.ValidationError(gettext("This username is taken."))
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        try:
            validate_password(attrs["password"], get_user_model()(username=attrs["username"]))
        except DjangoValidationError as exc:
            raise serializers.ValidationError({"password": list(exc.messages)}) from None
        return attrs


class TokenRequestSerializer(StrictSerializer):
    username = serializers.CharField()
    password = serializers.CharField(write_only=True)
    device = serializers.CharField(
        required=False, allow_blank=True, max_length=100, default="", help_text="A name to tell this token apart."
    )


class PasswordResetSerializer(StrictSerializer):
    email = serializers.EmailField(help_text="The address the account was registered with.")


class PasswordResetConfirmSerializer(StrictSerializer):
    uid = serializers.CharField(max_length=64, help_text="From the mailed link: `#/reset/<uid>/<token>`.")
    token = serializers.CharField(max_length=128, help_text="From the mailed link.")
    new_password = serializers.CharField(write_only=True, min_length=8, max_length=128)


class SessionLoginSerializer(StrictSerializer):
    username = serializers.CharField()
    password = serializers.CharField(write_only=True)


class DeviceSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="Names the token in auth/tokens/{id}/; not the token itself.")
    device = serializers.CharField()
    created = serializers.DateTimeField()
    expiry = serializers.DateTimeField(allow_null=True)
    current = serializers.BooleanField(help_text="The token this request was made with.")


class DevicePageSerializer(serializers.Serializer):
    results = DeviceSerializer(many=True)
    next_cursor = serializers.CharField(allow_null=True)
    has_more = serializers.BooleanField()


class TokenSerializer(serializers.Serializer):
    username = serializers.CharField()
    token = serializers.CharField(help_text="Send as `Authorization: Token <token>`; shown only this once.")
    id = serializers.CharField()
    device = serializers.CharField()
    expiry = serializers.DateTimeField(allow_null=True)


class SessionSerializer(serializers.Serializer):
    username = serializers.CharField(allow_null=True)
    is_staff = serializers.BooleanField(help_text="Staff: the payout desk, deposits and the reports.")
    is_auditor = serializers.BooleanField(
        help_text="Staff or a member of the `auditors` group: the disputes queue and its reviews."
    )
    csrf_token = serializers.CharField(help_text="Send back as the X-CSRFToken header on every write.")


class CreateTableSerializer(StrictSerializer):
    game = serializers.CharField(max_length=40)
    seats = serializers.IntegerField(min_value=1, max_value=20)
    options = serializers.DictField(required=False, default=dict)
    stake = serializers.DictField(required=False, allow_null=True, default=None)


class JoinSerializer(StrictSerializer):
    # A table has at most 20 seats (CreateTableSerializer), numbered from 0.
    seat = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=19, default=None)
    # The buy-in in chips, at a game where people choose it (Five-Card Draw's cash tables).
    chips = serializers.IntegerField(required=False, allow_null=True, min_value=1, default=None)


class ClientSeedSerializer(StrictSerializer):
    client_seed = serializers.CharField(allow_blank=True, max_length=64, trim_whitespace=False)


class ActionSerializer(StrictSerializer):
    action = serializers.DictField()
    expected_version = serializers.IntegerField(min_value=0)

    def validate_action(self, value: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(value.get("type"), str) or not value["type"]:
            raise serializers.ValidationError(
                gettext("An action needs a 'type', e.g. %(example)s.") % {"example": '{"type": "pass"}'}
            )
        return value


class WholeNumberField(serializers.IntegerField):
    """An integer query parameter: ASCII digits, with a minus sign where the range allows one.
    DRF's field takes ``50.0``, `` 7 ``, ``+7``, ``1_000`` and other scripts' digits, none of which
    is an integer as the document types it."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, str) and not is_whole_number(data):
            self.fail("invalid")
        return int(super().to_internal_value(data))


class EventsQuerySerializer(serializers.Serializer):
    after = WholeNumberField(min_value=0, required=False, default=0)
    cursor = WholeNumberField(
        min_value=0,
        required=False,
        allow_null=True,
        default=None,
        help_text="A page's `next_cursor`; wins over `after`.",
    )
    limit = WholeNumberField(
        min_value=1,
        max_value=EVENTS_MAX_LIMIT,
        required=False,
        default=EVENTS_MAX_LIMIT,
        help_text=f"At most this many events, 1 to {EVENTS_MAX_LIMIT}.",
    )
    wait = serializers.FloatField(min_value=0, max_value=60, required=False, default=0)
    sentences = serializers.BooleanField(
        required=False,
        default=False,
        help_text="`true`: each event carries its `sentence` for players, in the request's language.",
    )


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField(allow_null=True)
    bot = serializers.BooleanField()
    taken = serializers.BooleanField()
    played_by_bot = serializers.BooleanField(
        help_text="True when the table's bot plays this seat: a bot's seat, or a player's who sat out or left."
    )


class ResultPayoutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=["pending", "approved", "rejected"],
        help_text="`pending`: waits for staff review; `approved`: paid into the wallet (a bot's: back to "
        "the house); `rejected`: refused, its money back in the table's escrow.",
    )


class SeatResultSerializer(serializers.Serializer):
    """What one seat won or lost over the whole game, from the books."""

    seat = serializers.IntegerField()
    player = serializers.CharField(allow_null=True, help_text="The username; null for a bot.")
    bot = serializers.BooleanField()
    chips = serializers.IntegerField(
        allow_null=True,
        help_text="Chips won (positive) or lost over the game, leaving out chips bought or cashed out; "
        "null at a game played for a stake rather than chips.",
    )
    currency = serializers.CharField(allow_null=True, help_text="The table's currency; null without money.")
    paid = serializers.CharField(
        allow_null=True,
        help_text="What the player's wallet paid into the table (buy-ins, stakes, chips bought), a decimal "
        "string; null without money and for a bot, which plays from the house's bankroll.",
    )
    paid_minor = serializers.IntegerField(allow_null=True)
    won = serializers.CharField(
        allow_null=True, help_text="The seat's payout (`0.00` without one), a decimal string; null without money."
    )
    won_minor = serializers.IntegerField(allow_null=True)
    net = serializers.CharField(
        allow_null=True,
        help_text="`won` less `paid`: negative for money lost; null without money and for a bot.",
    )
    net_minor = serializers.IntegerField(allow_null=True)
    payout = ResultPayoutSerializer(
        allow_null=True, help_text="Where the prize is: the seat's payout and its status; null without one."
    )


class TableSerializer(serializers.Serializer):
    """The caller's view of a table (documentation shape; the view is built by the selector)."""

    id = serializers.UUIDField()
    game = serializers.CharField()
    status = serializers.ChoiceField(choices=["open", "running", "finished"])
    version = serializers.IntegerField()
    owner = serializers.CharField()
    config = serializers.DictField()
    seats = SeatSerializer(many=True)
    your_seat = serializers.IntegerField(allow_null=True)
    state = serializers.DictField(allow_null=True)
    to_act = serializers.ListField(child=serializers.IntegerField())
    deadline = serializers.DateTimeField(allow_null=True)
    seconds_left = serializers.FloatField(
        allow_null=True,
        help_text="The seconds from the server's clock to ``deadline`` when the answer was made (to a "
        "tenth, never below zero); null without a deadline. Count down from it, not from your own clock.",
    )
    legal_actions = serializers.ListField(child=serializers.DictField())
    next_commitment = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    result = SeatResultSerializer(
        many=True,
        allow_null=True,
        help_text="Once the table has finished, what each taken seat won or lost over the game; null before.",
    )


class TableSummarySerializer(serializers.Serializer):
    """One line of the tables list."""

    id = serializers.UUIDField()
    game = serializers.CharField()
    status = serializers.ChoiceField(choices=["open", "running", "finished"])
    seats = serializers.IntegerField(help_text="The number of seats.")
    version = serializers.IntegerField()
    owner = serializers.CharField()
    currency = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()


class TableSummaryPageSerializer(serializers.Serializer):
    results = TableSummarySerializer(many=True)
    next_cursor = serializers.CharField(allow_null=True)
    has_more = serializers.BooleanField()


class SentencePartSerializer(serializers.Serializer):
    text = serializers.CharField(required=False, help_text="Words, to show as text.")
    cards = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="A row of card codes, to draw as cards."
    )


class SentenceSerializer(serializers.Serializer):
    text = serializers.CharField(help_text="The whole sentence as plain text, each card as its code.")
    parts = SentencePartSerializer(
        many=True, help_text="The sentence in order: each part either `text` or a row of `cards`."
    )


class SentencesQuerySerializer(serializers.Serializer):
    sentences = serializers.BooleanField(required=False, default=False)


class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    hand_no = serializers.IntegerField()
    actor = serializers.CharField(
        allow_null=True, help_text="The username of the person who acted; null for a bot or the system."
    )
    actor_kind = serializers.ChoiceField(choices=["user", "bot", "system"])
    actor_seat = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    data = serializers.DictField()
    sentence = SentenceSerializer(
        required=False,
        help_text="Only when asked for (`sentences=true`): the event as a sentence for players, in the "
        "request's language, made from `data` as the caller sees it.",
    )


class EventsPageSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="The table's version; never behind the last event carried.")
    results = EventSerializer(many=True)
    next_cursor = serializers.CharField(allow_null=True)
    has_more = serializers.BooleanField()


class ActionResultSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    events = EventSerializer(many=True)
    table = TableSerializer()


class ErrorSerializer(serializers.Serializer):
    """Every refusal: RFC 9457 problem details with the stable ``code`` and the refusal's extras."""

    type = serializers.CharField(help_text="The problem type as a URI: `urn:gameledger:problem:<code>`.")
    title = serializers.CharField(help_text="The status's reason phrase, e.g. `Unprocessable Content`.")
    status = serializers.IntegerField(help_text="The HTTP status code.")
    code = serializers.CharField(
        help_text="Stable machine-readable reason, e.g. `illegal_action`; each error response lists its codes."
    )
    detail = serializers.CharField(help_text="A sentence for a person.")
    instance = serializers.CharField(required=False, help_text="The path of the request refused.")
    fields = serializers.DictField(
        child=serializers.JSONField(), required=False, help_text="Per request field, what is wrong with it (400)."
    )
    field = serializers.CharField(required=False, help_text="The one request field that is wrong.")
    legal_actions = serializers.ListField(
        child=serializers.DictField(), required=False, help_text="What the seat may do now (422 illegal_action)."
    )
    legal = serializers.ListField(child=serializers.DictField(), required=False, help_text="The legal options.")
    current_version = serializers.IntegerField(required=False, help_text="Where the table is now (409).")
    retry_after = serializers.IntegerField(required=False, help_text="Seconds to wait before trying again.")
    needed = serializers.CharField(required=False, help_text="Money the wallet lacks, a decimal string.")
    balance = serializers.CharField(required=False, help_text="What the wallet holds, a decimal string.")
    request_id = serializers.CharField(required=False, help_text="What to quote to the operator (500).")
    payout_id = serializers.IntegerField(required=False, help_text="The payout refused (409 payout_decided).")
    payout_status = serializers.CharField(required=False, help_text="Where that payout stands (409 payout_decided).")
    deposit_id = serializers.CharField(
        required=False, help_text="The large deposit refused (409 deposit_decided, second_approver_needed)."
    )
    deposit_state = serializers.CharField(required=False, help_text="Where that deposit stands (409 deposit_decided).")
    state = serializers.CharField(required=False, help_text="Where the dispute stands (409 dispute_decided).")
    taken_by = serializers.CharField(required=False, help_text="The auditor who took the dispute (409 dispute_taken).")
    closed_at = serializers.DateTimeField(required=False, help_text="When filing closed (409 dispute_window_closed).")
    dispute_id = serializers.IntegerField(
        required=False, allow_null=True, help_text="The dispute that holds it, or the one already filed (409)."
    )
    limit = serializers.IntegerField(required=False, help_text="The most bytes a request body may have (413).")
    catch_up = serializers.CharField(
        required=False,
        help_text="The events endpoint to read the missed events from, `/api/v1/tables/{id}/events/?after=n` "
        "(409 resume_too_old).",
    )
    bound = serializers.CharField(
        required=False,
        help_text="The most a dispute can still be compensated, a decimal string (422 compensation_over_bound).",
    )
    lost = serializers.CharField(
        required=False,
        help_text="What the player lost on the hand, or at the table, a decimal string (422 compensation_over_bound).",
    )
    compensated = serializers.CharField(
        required=False,
        help_text="What was already upheld for that loss, a decimal string (422 compensation_over_bound).",
    )
    budget = serializers.CharField(
        required=False, help_text="The house compensation budget, a decimal string (422 compensation_budget_exceeded)."
    )
    left = serializers.CharField(
        required=False, help_text="What the compensation budget can still pay (422 compensation_budget_exceeded)."
    )
    currency = serializers.CharField(
        required=False, help_text="The currency of `bound`, `lost`, `compensated`, `budget` and `left`."
    )
