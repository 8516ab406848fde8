from enum import StrEnum

class ShareMode(StrEnum):
    FILL = "fill"

    def __str__(self) -> str:
        return str(self.value)
