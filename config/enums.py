"""The names of the OpenAPI document's enums (drf-spectacular's ``ENUM_NAME_OVERRIDES``), by their
values: each says whose it is, not the field's name alone (``StateEnum``, ``KindEnum``), because a
generated client names its types after them. tests/api/test_contract.py refuses a generic or a
made-up (hashed) name."""

ENUM_NAME_OVERRIDES = {
    "TableStatusEnum": ["open", "running", "finished"],
    "CheckStatusEnum": ["pass", "fail", "skip"],
    "PayoutStatusEnum": ["pending", "approved", "rejected"],
    "DisputeStateEnum": ["open", "under_review", "awaiting_approval", "upheld", "rejected"],
    "DisputeStepKindEnum": [
        "filed",
        "payouts_held",
        "taken",
        "decided",
        "referred",
        "compensation_approved",
        "compensation_declined",
        "compensation_paid",
        "payouts_released",
    ],
    "DisputeCategoryEnum": ["cards", "rules", "timer", "money"],
    "DisputeOutcomeEnum": ["upheld", "rejected"],
    "DisputeReferralEnum": ["void_table", "other"],
    "GameOptionTypeEnum": ["int", "bool", "choice", "str"],
    "GameMoneyEnum": ["chips", "stake"],
    "ShowdownOutcomeEnum": ["wins", "splits", "returned", "pays", "safe", "loses", "out"],
    "TextDirectionEnum": ["ltr", "rtl"],
}
