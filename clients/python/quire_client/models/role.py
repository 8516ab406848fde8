from enum import StrEnum

class Role(StrEnum):
    OWNER = "owner"

    def __str__(self) -> str:
        return str(self.value)
