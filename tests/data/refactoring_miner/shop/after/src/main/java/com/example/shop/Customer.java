package com.example.shop;

public class Customer {
    private final String name;
    private final boolean loyal;

    public Customer(String name, boolean loyal) {
        this.name = name;
        this.loyal = loyal;
    }

    public String getName() {
        return name;
    }

    public boolean isLoyal() {
        return loyal;
    }

    public double discount() {
        return isLoyal() ? 0.1 : 0.0;
    }
}
