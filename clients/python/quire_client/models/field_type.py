from enum import StrEnum

class FieldType(StrEnum):
    CHECKBOX = "checkbox"
    DATE = "date"
    EMAIL = "email"
    LIST = "list"
    MULTILINE = "multiline"
    NUMBER = "number"
    RADIO = "radio"
    SELECT = "select"
    SIGNATURE = "signature"
    TEXT = "text"

    def __str__(self) -> str:
        return str(self.value)
