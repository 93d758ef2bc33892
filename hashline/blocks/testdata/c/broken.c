int main( {
}
