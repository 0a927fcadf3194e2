"""Reading model output: tag state machine, lenient JSON, call shapes, dialects."""
