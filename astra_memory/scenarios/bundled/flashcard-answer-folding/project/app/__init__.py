"""wordloom: vocabulary flashcards for language learners."""
